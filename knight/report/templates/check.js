// The self-check page: a student's printed tour checked in the browser, no server, no network.
// A hand-written port of knight check (knight/grading/formats.py and check.py) for the array and the
// (row, col) pairs formats; tests/report/test_self_check.py requires the same verdict, first error step,
// repeated and unvisited squares as the Python checker on generated submissions.
"use strict";
(function () {
  var MAX_BOARD_SQUARES = 300000, MAX_DIGITS = 12, DRAW_UP_TO = 2500;
  var BLANKS = [".", "-", "_", "*", ".."];
  var BORDER = /[|+=─│┼┌┐└┘├┤┬┴═║╬╔╗╚╝╠╣╦╩:]/g;
  var PAIR = /[(\[]\s*([+-]?\d+)\s*[,;\s]\s*([+-]?\d+)\s*[)\]]/g;
  var CHESS = /^([a-zA-Z])(\d{1,3})$/;
  var CHESS_SPLIT = /[\s,;]+|-+>|→|–|—|(?<=\d)-(?=[a-zA-Z])/;

  function Unreadable(message) { this.message = message; }

  function knightMove(a, b) { return Math.abs((a[0] - b[0]) * (a[1] - b[1])) === 2; }
  function legal(path) {
    for (var i = 1; i < path.length; i++) if (!knightMove(path[i - 1], path[i])) return false;
    return true;
  }
  function contains(board, sq) { return sq[0] >= 0 && sq[0] < board.n && sq[1] >= 0 && sq[1] < board.m; }
  function key(sq) { return sq[0] + "," + sq[1]; }
  function squareName(board, sq) {
    if (contains(board, sq) && board.m <= 26) return String.fromCharCode(97 + sq[1]) + (board.n - sq[0]);
    return "(" + sq[0] + ", " + sq[1] + ")";
  }
  function number(token) {
    var digits = token.replace(/^[+-]+/, "").length;
    if (digits > MAX_DIGITS) throw new Unreadable("a number of " + digits + " digits is out of range; numbers are squares' counters and coordinates, a few digits each");
    return parseInt(token, 10);
  }
  function makeBoard(n, m) {
    if (n > 0 && m > 0 && n * m > MAX_BOARD_SQUARES) throw new Unreadable("the board " + n + "x" + m + " has more than " + MAX_BOARD_SQUARES + " squares");
    if (n < 1 || m < 1) throw new Unreadable("no board has " + n + " rows and " + m + " columns; give the board's rows and columns");
    return { n: n, m: m };
  }

  // --- reading: the array and the pairs, as knight check reads them --------------------------------
  function numericRow(line) {
    var cleaned = line.replace(BORDER, " ").trim();
    if (!cleaned) return line.trim() ? [] : null;
    var tokens = [];
    var parts = cleaned.split(/[\s,;]+/);
    for (var i = 0; i < parts.length; i++) {
      var t = parts[i];
      if (!t || (t.length > 1 && /^[-_=]+$/.test(t))) continue;
      if (BLANKS.indexOf(t) < 0 && !/^[+-]?\d+$/.test(t)) return null;
      tokens.push(t);
    }
    return tokens.map(function (t) { return BLANKS.indexOf(t) >= 0 ? null : number(t); });
  }
  function numericBlock(lines) {
    var best = [], current = [];
    lines.forEach(function (line) {
      var row = numericRow(line);
      if (row === null) { if (current.length > best.length) best = current; current = []; }
      else if (row.length) current.push(row);
    });
    return current.length > best.length ? current : best;
  }
  function chessTokens(lines) {
    var found = [];
    lines.forEach(function (line) {
      var tokens = line.trim().split(CHESS_SPLIT).filter(function (t) { return t; });
      if (tokens.length && tokens.every(function (t) { return CHESS.test(t); })) found = found.concat(tokens);
    });
    return found;
  }
  function isCsvHeader(line) {
    var fields = line.split(",").map(function (f) { return f.trim().replace(/^"+|"+$/g, "").toLowerCase(); });
    return fields.length >= 2 && fields.indexOf("row") >= 0 && (fields.indexOf("col") >= 0 || fields.indexOf("column") >= 0);
  }
  function detect(text) {
    if (/^\s*\{/.test(text)) return "json";
    var lines = text.split(/\r\n|\r|\n/);
    if (lines.slice(0, 50).some(isCsvHeader)) return "csv";
    var found = [];
    if ((text.match(PAIR) || []).length >= 2) found.push("pairs");
    if (chessTokens(lines).length >= 3) found.push("chess");
    var block = numericBlock(lines);
    if (block.length >= 2 && found.indexOf("pairs") < 0) {
      found.push(block.length > 2 && block.every(function (r) { return r.length === 2; }) ? "pairs" : "array");
    }
    if (!found.length) throw new Unreadable("no tour found: paste the numbered array your program prints, or the (row, col) pairs in order");
    if (found.length > 1) throw new Unreadable("mixed formats: the text holds both " + found[0] + " and " + found[1] + " data; keep one");
    return found[0];
  }

  function readArray(text) {
    var rows = numericBlock(text.split(/\r\n|\r|\n/));
    if (!rows.length) throw new Unreadable("no numbered array found; paste the array one board row a line");
    var width = rows[0].length;
    rows.forEach(function (row, i) {
      if (row.length !== width) throw new Unreadable("ragged array: row " + (i + 1) + " has " + row.length + " entries, row 1 has " + width + "; give every row the same number of entries");
    });
    var n = rows.length, m = width, board = makeBoard(n, m), size = n * m;
    var values = [].concat.apply([], rows), numbers = values.filter(function (v) { return v !== null; });
    var dots = values.length - numbers.length, notes = [];
    values.forEach(function (v, index) {
      if (v !== null && !(v >= 0 && v <= size)) throw new Unreadable("number " + v + " in row " + (Math.floor(index / m) + 1) + ", column " + (index % m + 1) + " is out of range for a " + n + " × " + m + " board (1.." + size + ", 0 or . for unvisited)");
    });
    var zeroBased = false, zeros = numbers.filter(function (v) { return v === 0; }).length;
    var place = {};
    values.forEach(function (v, index) { if (v !== null) place[v] = index; });
    var permutation = numbers.length === size && zeros === 1 && numbers.indexOf(size) < 0 && Object.keys(place).length === size;
    if (permutation) {
      var path = [];
      for (var k = 0; k < size; k++) path.push([Math.floor(place[k] / m), place[k] % m]);
      if (legal(path)) { zeroBased = true; notes.push("0-based counters"); }
      else notes.push("0…nm−1 is not a legal 0-based tour: read as 1-based, 0 = unvisited");
    } else if (dots && zeros === 1 && numbers.indexOf(size) < 0) {
      zeroBased = true; notes.push("0-based counters with dots for unvisited squares");
    }
    var byCounter = {};
    values.forEach(function (v, index) {
      if (v === null || (v === 0 && !zeroBased)) return;
      var c = zeroBased ? v + 1 : v;
      (byCounter[c] = byCounter[c] || []).push([Math.floor(index / m), index % m]);
    });
    var counters = Object.keys(byCounter).map(Number).sort(function (a, b) { return a - b; });
    if (!counters.length) throw new Unreadable("the array holds no visited square (all 0)");
    var shown = function (c) { return zeroBased ? c - 1 : c; };
    var squares = [], labels = [], problems = [], expected = 1;
    counters.forEach(function (counter) {
      if (counter !== expected) {
        var what = counter === expected + 1 ? String(shown(expected)) : shown(expected) + "…" + shown(counter - 1);
        problems.push([Math.max(expected - 1, 1), "number " + what + " is missing"]);
      }
      var places = byCounter[counter];
      if (places.length > 1) {
        problems.push([Math.max(counter - 1, 1), "number " + shown(counter) + " is written twice, at " + places.map(function (s) { return squareName(board, s); }).join(" and ")]);
        if (squares.length) {  // of two squares holding one number, the one a knight reaches
          var last = squares[squares.length - 1];
          places = places.filter(function (s) { return knightMove(last, s); }).concat(places.filter(function (s) { return !knightMove(last, s); }));
        }
      }
      squares.push(places[0]); labels.push(counter); expected = counter + 1;
    });
    return { format: "array", board: board, squares: squares, labels: labels, problems: problems, notes: notes };
  }

  function readPairs(text, board) {
    var pairs = [], match;
    PAIR.lastIndex = 0;
    while ((match = PAIR.exec(text))) pairs.push([number(match[1]), number(match[2])]);
    if (pairs.length < 2) {
      var rows = numericBlock(text.split(/\r\n|\r|\n/));
      if (!rows.length || rows.some(function (r) { return r.length !== 2 || r[0] === null || r[1] === null; })) throw new Unreadable("no list of (row, col) pairs found; give one square a line as 'row col', or as (row, col)");
      pairs = rows;
    }
    var rs = pairs.map(function (p) { return p[0]; }), cs = pairs.map(function (p) { return p[1]; });
    var noZero = rs.indexOf(0) < 0 && cs.indexOf(0) < 0;
    var oneBased = board ? noZero && (Math.max.apply(null, rs) >= board.n || Math.max.apply(null, cs) >= board.m) : noZero;
    var shift = oneBased ? 1 : 0;
    var squares = pairs.map(function (p) { return [p[0] - shift, p[1] - shift]; });
    var notes = [oneBased ? "1-based (row, col): no coordinate is 0" : "0-based (row, col)"];
    if (!board) {
      var side = Math.floor(Math.sqrt(squares.length));
      while (side * side > squares.length) side--;
      while ((side + 1) * (side + 1) <= squares.length) side++;
      if (side * side === squares.length && squares.every(function (s) { return s[0] >= 0 && s[0] < side && s[1] >= 0 && s[1] < side; })) board = makeBoard(side, side);
      else {
        board = makeBoard(Math.max.apply(null, squares.map(function (s) { return s[0]; })) + 1, Math.max.apply(null, squares.map(function (s) { return s[1]; })) + 1);
        notes.push("board " + board.n + " × " + board.m + " inferred from the largest row and column (give the rows and columns to be sure)");
      }
    }
    return { format: "pairs", board: board, squares: squares, labels: squares.map(function (_, i) { return i + 1; }), problems: [], notes: notes };
  }

  function read(text, board) {
    if (!text.trim()) throw new Unreadable("nothing to check: paste your program's output");
    var format = detect(text);
    if (format === "array") return readArray(text);
    if (format === "pairs") return readPairs(text, board);
    throw new Unreadable("this page reads the numbered array and (row, col) pairs; for " + format + " use knight check");
  }

  // --- checking: the verdict, the first error step, repeated and unvisited squares -------------------
  function check(s) {
    var b = s.board, squares = s.squares, labels = s.labels;
    var errors = [], repeated = {}, firstSeen = {}, offBoard = [], errorSquares = {};
    squares.forEach(function (sq, i) {
      var step = i ? labels[i - 1] : 1;
      if (!contains(b, sq)) {
        offBoard.push([labels[i], sq]);
        errors.push([step, 0, "step " + step + ": square " + labels[i] + " at (" + sq[0] + ", " + sq[1] + ") is off the board"]);
        return;
      }
      var k = key(sq);
      if (k in firstSeen) {
        (repeated[k] = repeated[k] || { square: sq, numbers: [firstSeen[k]] }).numbers.push(labels[i]);
        errors.push([step, 2, "step " + step + ": square " + squareName(b, sq) + " is visited twice (numbers " + firstSeen[k] + " and " + labels[i] + ")"]);
        errorSquares[step] = errorSquares[step] || sq;
      } else firstSeen[k] = labels[i];
      if (i && contains(b, squares[i - 1]) && !knightMove(squares[i - 1], sq)) {
        errors.push([step, 1, "step " + step + ": " + squareName(b, squares[i - 1]) + " → " + squareName(b, sq) + " is not a knight move"]);
        errorSquares[step] = errorSquares[step] || sq;
      }
    });
    s.problems.forEach(function (p) { errors.push([p[0], 3, "step " + p[0] + ": " + p[1]]); });
    errors.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
    var unvisited = [];
    for (var r = 0; r < b.n; r++) for (var c = 0; c < b.m; c++) if (!(key([r, c]) in firstSeen)) unvisited.push([r, c]);
    var verdict = errors.length ? "not a tour" : squares.length === b.n * b.m ? "full" : "partial";
    var closed = verdict === "full" && squares.length >= 3 && knightMove(squares[0], squares[squares.length - 1]);
    var firstStep = errors.length ? errors[0][0] : null;
    return {
      verdict: verdict, closed: closed, firstErrorStep: firstStep, errors: errors.map(function (e) { return e[2]; }),
      repeated: Object.keys(repeated).map(function (k) { return repeated[k]; }), unvisited: unvisited, offBoard: offBoard,
      errorSquare: firstStep === null ? null : errorSquares[firstStep] || null
    };
  }

  // --- the page -----------------------------------------------------------------------------------
  var SVG = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (a) { node.setAttribute(a, attrs[a]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function drawBoard(s, result, holder) {
    holder.textContent = "";
    var b = s.board;
    if (b.n * b.m > DRAW_UP_TO) { holder.textContent = "(the board is too large to draw here)"; return; }
    var cell = 40, svg = el("svg", { viewBox: "-2 -2 " + (b.m * cell + 4) + " " + (b.n * cell + 4), role: "img", "aria-label": "the tour on its board" });
    var stop = result.firstErrorStep, bad = {}, unvisited = {};
    result.repeated.forEach(function (rep) { bad[key(rep.square)] = true; });
    result.unvisited.forEach(function (sq) { unvisited[key(sq)] = true; });
    for (var r = 0; r < b.n; r++) for (var c = 0; c < b.m; c++) {
      var cls = bad[key([r, c])] ? "sq repeated" : unvisited[key([r, c])] ? "sq unvisited" : (r + c) % 2 ? "sq dark" : "sq light";
      el("rect", { x: c * cell, y: r * cell, width: cell, height: cell, "class": cls }, svg);
    }
    var centre = function (sq) { return [sq[1] * cell + cell / 2, sq[0] * cell + cell / 2]; };
    var points = [], i;
    for (i = 0; i < s.squares.length; i++) {
      if (!contains(b, s.squares[i]) || (stop !== null && i && s.labels[i - 1] >= stop)) break;
      points.push(centre(s.squares[i]).join(","));
    }
    el("polyline", { points: points.join(" "), "class": "path" }, svg);
    if (result.errorSquare && i > 0 && contains(b, s.squares[i - 1])) {
      var a = centre(s.squares[i - 1]), e = centre(result.errorSquare);
      el("line", { x1: a[0], y1: a[1], x2: e[0], y2: e[1], "class": "error-move" }, svg);
    }
    if (result.errorSquare) el("rect", { x: result.errorSquare[1] * cell + 2, y: result.errorSquare[0] * cell + 2, width: cell - 4, height: cell - 4, "class": "error-square" }, svg);
    var drawn = {};
    s.squares.forEach(function (sq, k) {
      if (!contains(b, sq) || drawn[key(sq)]) return;
      drawn[key(sq)] = true;
      var t = el("text", { x: sq[1] * cell + cell / 2, y: sq[0] * cell + cell / 2 + 5, "class": "label" }, svg);
      t.textContent = s.labels[k];
    });
    if (contains(b, s.squares[0])) { var st = centre(s.squares[0]); el("circle", { cx: st[0], cy: st[1], r: 7, "class": "start" }, svg); }
    holder.appendChild(svg);
  }

  function say(verdict, text, cls) {
    var p = document.createElement("p");
    p.textContent = text;
    if (cls) p.className = cls;
    verdict.appendChild(p);
  }
  function assigned() {
    var rows = parseInt(document.getElementById("rows").value, 10), cols = parseInt(document.getElementById("cols").value, 10);
    if (!(rows > 0)) return null;
    return makeBoard(rows, cols > 0 ? cols : rows);
  }
  function run() {
    var verdict = document.getElementById("verdict"), holder = document.getElementById("board");
    verdict.textContent = ""; holder.textContent = "";
    var s, result;
    try {
      s = read(document.getElementById("tour").value, assigned());
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      verdict.dataset.verdict = "unreadable";
      ["closed", "firstError", "repeated", "unvisited"].forEach(function (d) { delete verdict.dataset[d]; });
      verdict.className = "verdict unreadable";
      say(verdict, "Cannot read this: " + error.message + ".", "headline");
      return;
    }
    result = check(s);
    verdict.dataset.verdict = result.verdict;
    verdict.dataset.closed = String(result.closed);
    verdict.dataset.firstError = result.firstErrorStep === null ? "" : String(result.firstErrorStep);
    verdict.dataset.repeated = JSON.stringify(result.repeated.map(function (rep) { return [rep.square, rep.numbers]; }));
    verdict.dataset.unvisited = JSON.stringify(result.unvisited);
    verdict.className = "verdict " + (result.verdict === "full" ? "good" : "bad");
    var size = s.board.n + " × " + s.board.m;
    var headline = result.verdict === "full" ? "A full tour, " + (result.closed ? "closed" : "open") + ", on the " + size + " board."
      : result.verdict === "partial" ? "A partial tour: " + s.squares.length + " of " + s.board.n * s.board.m + " squares, every step legal."
      : "Not a tour: the first error is at step " + result.firstErrorStep + ".";
    say(verdict, headline, "headline");
    if (result.errors.length) say(verdict, result.errors[0] + (result.errors.length > 1 ? " (and " + (result.errors.length - 1) + " more)" : "") + ".");
    result.repeated.forEach(function (rep) { say(verdict, "Repeated: " + squareName(s.board, rep.square) + " holds numbers " + rep.numbers.join(" and ") + "."); });
    if (result.unvisited.length) say(verdict, "Never visited: " + result.unvisited.slice(0, 32).map(function (sq) { return squareName(s.board, sq); }).join(" ") + (result.unvisited.length > 32 ? " … (" + result.unvisited.length + " in all)" : "") + ".");
    var wanted = assigned();
    if (wanted && s.format === "array" && (wanted.n !== s.board.n || wanted.m !== s.board.m)) say(verdict, "This array is " + size + "; the assignment's board is " + wanted.n + " × " + wanted.m + ".", "bad-board");
    say(verdict, "Read as " + s.format + (s.notes.length ? " (" + s.notes.join("; ") + ")" : "") + ".", "notes");
    drawBoard(s, result, holder);
  }

  function start() {
    var tour = document.getElementById("tour"), timer = null;
    document.getElementById("check").addEventListener("click", run);
    tour.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 300); });
    document.getElementById("file").addEventListener("change", function (event) {
      var file = event.target.files[0];
      if (!file) return;
      var reader = new FileReader();
      reader.onload = function () { tour.value = String(reader.result).replace(/^\uFEFF/, ""); run(); };
      reader.readAsText(file);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
