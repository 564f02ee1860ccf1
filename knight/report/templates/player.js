/* The tour player: step through or animate every tour diagram of the page.

   A tour diagram (knight/engine/diagrams.py, tour_svg) is <svg class="board tour"> holding
   - <polyline class="path">: the centres of the squares in visiting order;
   - elements with data-step="k": what the k-th square adds (its disc and number; the end marker and
     the dashed closing move belong to the last step).
   Showing step k keeps the first k points of the path and hides every element of a later step.
   The controls are made here, so without JavaScript (and in the PDF) the whole tour shows. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var TEXT = "\uFE0E"; // text presentation: no emoji arrows on phones

  function player(svg) {
    var path = svg.querySelector("polyline.path");
    if (!path) return; // a tour of one square: nothing to play
    var points = path.getAttribute("points").trim().split(/\s+/);
    var steps = svg.querySelectorAll("[data-step]");
    var last = points.length, shown = last, timer = null;
    // the tour runs in about 16 s whatever its length: slower steps on small boards, several per tick on large ones
    var delay = Math.max(40, Math.min(300, 16000 / last)), stride = Math.max(1, Math.round(last * delay / 16000));

    var first = svg.querySelector(".start");
    var knight = document.createElementNS(SVG, "circle"); // a ring on the square the knight stands on
    knight.setAttribute("class", "knight");
    knight.setAttribute("r", 1.45 * (first ? first.getAttribute("r") : 9));
    knight.setAttribute("fill", "none");
    knight.setAttribute("stroke", "#f2a93b");
    knight.setAttribute("stroke-width", "3");
    svg.appendChild(knight);

    var controls = document.createElement("div");
    controls.className = "player";
    controls.setAttribute("role", "group");
    controls.setAttribute("aria-label", "Play the tour");
    function button(label, text, action) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = text;
      b.title = label;
      b.setAttribute("aria-label", label);
      b.addEventListener("click", action);
      controls.appendChild(b);
      return b;
    }
    button("first square", "|\u25C0" + TEXT, function () { stop(); show(1); });
    button("step back", "\u25C0" + TEXT, function () { stop(); show(shown - 1); });
    var play = button("play", "\u25B6" + TEXT, function () { if (timer) stop(); else go(); });
    button("step forward", "\u25B6" + TEXT + "|", function () { stop(); show(shown + 1); });
    var slider = document.createElement("input");
    slider.type = "range";
    slider.min = 1;
    slider.max = last;
    slider.setAttribute("aria-label", "step");
    slider.addEventListener("input", function () { stop(); show(+slider.value); });
    var counter = document.createElement("output");
    controls.appendChild(counter);
    controls.appendChild(slider);
    svg.parentNode.insertBefore(controls, svg.nextSibling);

    function show(k) {
      shown = Math.max(1, Math.min(last, k));
      path.setAttribute("points", points.slice(0, shown).join(" "));
      for (var i = 0; i < steps.length; i++) {
        steps[i].style.visibility = +steps[i].getAttribute("data-step") > shown ? "hidden" : "";
      }
      var here = points[shown - 1].split(",");
      knight.setAttribute("cx", here[0]);
      knight.setAttribute("cy", here[1]);
      knight.style.visibility = shown < last ? "" : "hidden"; // the whole tour looks as it does without the player
      counter.textContent = shown + " / " + last;
      slider.value = shown;
    }
    function go() {
      if (shown >= last) show(1);
      play.textContent = "\u275A\u275A";
      play.title = "pause";
      play.setAttribute("aria-label", "pause");
      timer = setInterval(function () {
        show(shown + stride);
        if (shown >= last) stop();
      }, delay);
    }
    function stop() {
      clearInterval(timer);
      timer = null;
      play.textContent = "\u25B6" + TEXT;
      play.title = "play";
      play.setAttribute("aria-label", "play");
    }
    show(last);
  }

  function start() {
    var tours = document.querySelectorAll("svg.tour");
    for (var i = 0; i < tours.length; i++) player(tours[i]);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
