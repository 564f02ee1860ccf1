// The self-check page: a student's printed tour checked in the browser, no server, no network.
//
// A hand-written port of `knight check`: knight/grading/formats.py (parse_bytes, parse_text and the five
// readers), knight/grading/files.py (text_by_bom) and knight/grading/check.py (check, the rule, the assigned
// exercise). It reads what the command reads and says what the command says; tests/conformance/ pins both
// to one corpus of inputs and their verdicts, and tests/report/test_self_check.py compares the two on a few
// hundred generated inputs. The characters are formats.py's, said explicitly: LINE_BREAKS, SPACES, digits
// 0-9 only; never JavaScript's \s, \d, trim() or split(/\n/), whose sets differ from Python's.
//
// Untrusted text of up to MAX_BYTES: every scan is a loop over the text or a regex that cannot backtrack, and
// nothing spreads an array into arguments (Math.max(...a), f.apply(null, a)) or recurses on the input.
"use strict";
(function () {
  // formats.py's bounds (tests/report/test_self_check.py holds them equal to the Python constants)
  var MAX_BYTES = 2000000, MAX_BOARD_SQUARES = 300000, MAX_DIGITS = 12, MAX_JSON_DEPTH = 16;
  var LINE_BREAKS = "\n\r\u000b\f\u001c\u001d\u001e\u0085\u2028\u2029";
  var SPACES = "\t\n\u000b\f\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005" +
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
  var BORDER = "|+=─│┼┌┐└┘├┤┬┴═║╬╔╗╚╝╠╣╦╩:";
  var BLANKS = [".", "-", "_", "*", ".."];
  var DRAW_UP_TO = 2500, AUTO_CHECK_UP_TO = 200000, SHOW_UP_TO = 32;
  var TOO_LARGE = "the file is larger than " + Math.floor(MAX_BYTES / 1000000) + " MB; hand in the tour alone " +
    "(an array, a list of squares or knight tour --json)";
  var BINARY = "the file is binary, not text; hand in the program's printed output as a text file";
  var FULL = "full", PARTIAL = "partial", NOT_A_TOUR = "not a tour";
  var MOVES = [[2, 1], [1, 2], [-1, 2], [-2, 1], [-2, -1], [-1, -2], [1, -2], [2, -1]];

  var SPACE = {}, BREAK = {}, BORDERS = {};
  for (var ci = 0; ci < SPACES.length; ci++) SPACE[SPACES[ci]] = true;
  for (ci = 0; ci < LINE_BREAKS.length; ci++) BREAK[LINE_BREAKS[ci]] = true;
  for (ci = 0; ci < BORDER.length; ci++) BORDERS[BORDER[ci]] = true;

  function Unreadable(message) { this.message = message; }
  function BadAssignment(message) { this.message = message; }

  // --- characters, as Python's str methods ------------------------------------------------------------
  function isDigit(ch) { return ch >= "0" && ch <= "9"; }
  function isLetter(ch) { return (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z"); }
  function strip(s) {  // str.strip()
    var a = 0, b = s.length;
    while (a < b && SPACE[s[a]]) a++;
    while (b > a && SPACE[s[b - 1]]) b--;
    return s.slice(a, b);
  }
  function lstrip(s) { var a = 0; while (a < s.length && SPACE[s[a]]) a++; return s.slice(a); }
  function stripQuotes(s) {  // str.strip('"')
    var a = 0, b = s.length;
    while (a < b && s[a] === '"') a++;
    while (b > a && s[b - 1] === '"') b--;
    return s.slice(a, b);
  }
  function asciiLower(s) { return s.replace(/[A-Z]+/g, function (t) { return t.toLowerCase(); }); }
  function splitLines(text) {  // str.splitlines(): \r\n is one end; no empty piece after a final end
    var lines = [], start = 0, i = 0, n = text.length;
    while (i < n) {
      var ch = text[i];
      if (BREAK[ch]) {
        lines.push(text.slice(start, i));
        i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
        start = i;
      } else i++;
    }
    if (start < n) lines.push(text.slice(start));
    return lines;
  }
  function tokens(s, isSeparator) {  // the non-empty pieces of re.split(r"[sep]+", s)
    var found = [], start = -1;
    for (var i = 0; i <= s.length; i++) {
      if (i === s.length || isSeparator(s[i])) { if (start >= 0) found.push(s.slice(start, i)); start = -1; }
      else if (start < 0) start = i;
    }
    return found;
  }
  function isSeparator(ch) { return SPACE[ch] === true || ch === "," || ch === ";"; }
  function isInt(s) {  // _INT.fullmatch: [+-]?[0-9]+
    var i = s[0] === "+" || s[0] === "-" ? 1 : 0;
    if (i >= s.length) return false;
    for (; i < s.length; i++) if (!isDigit(s[i])) return false;
    return true;
  }
  function grouped(n) { return String(n).replace(/\B(?=(\d{3})+$)/g, ","); }  // {n:,}; on digits only, short
  var UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Zs}]/u;  // str.isprintable() is false
  function pyRepr(s) {  // repr() of a short str (at most 40 characters), as the messages show it
    var quote = s.indexOf("'") >= 0 && s.indexOf('"') < 0 ? '"' : "'", out = quote;
    Array.from(s).forEach(function (ch) {
      var code = ch.codePointAt(0), hex = code.toString(16);
      if (ch === "\\" || ch === quote) out += "\\" + ch;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (ch === " " || !UNPRINTABLE.test(ch)) out += ch;
      else if (code < 0x100) out += "\\x" + ("0" + hex).slice(-2);
      else if (code < 0x10000) out += "\\u" + ("000" + hex).slice(-4);
      else out += "\\U" + ("0000000" + hex).slice(-8);
    });
    return out + quote;
  }

  // --- numbers and boards ------------------------------------------------------------------------
  function number(token) {
    var digits = token.replace(/^[+-]/, "").length;
    if (digits > MAX_DIGITS) throw new Unreadable("a number of " + grouped(digits) + " digits (" + token.slice(0, 8) + "…) is out of range; numbers are squares' counters and coordinates, a few digits each");
    return parseInt(token, 10);
  }
  function boardName(b) { return b.n + "x" + b.m; }
  function makeBoard(n, m) {  // formats._board
    if (n > 0 && m > 0 && n * m > MAX_BOARD_SQUARES) throw new Unreadable("the board " + n + "x" + m + " has " + grouped(n * m) + " squares; submissions are read on boards of at most " + grouped(MAX_BOARD_SQUARES) + " (a full tour of more does not fit in " + Math.floor(MAX_BYTES / 1000000) + " MB)");
    if (n < 1) throw new Unreadable("board size n must be a positive integer, got " + n + "; give --board N or NxM");
    if (m < 1) throw new Unreadable("board size m must be a positive integer, got " + m + "; give --board N or NxM");
    return { n: n, m: m, size: n * m };
  }
  function contains(b, sq) { return sq[0] >= 0 && sq[0] < b.n && sq[1] >= 0 && sq[1] < b.m; }
  function knightMove(a, b) { var dr = Math.abs(a[0] - b[0]), dc = Math.abs(a[1] - b[1]); return (dr === 1 && dc === 2) || (dr === 2 && dc === 1); }
  function name(sq) { return "(" + sq[0] + ", " + sq[1] + ")"; }  // formats.square_name
  function maxOf(values) { var best = -Infinity; for (var i = 0; i < values.length; i++) if (values[i] > best) best = values[i]; return best; }
  function isqrt(k) { var r = Math.floor(Math.sqrt(k)); while (r * r > k) r--; while ((r + 1) * (r + 1) <= k) r++; return r; }

  // --- bytes to text: formats.parse_bytes and files.text_by_bom ------------------------------------
  var BOMS = [[[0xff, 0xfe, 0, 0], "UTF-32", "le"], [[0, 0, 0xfe, 0xff], "UTF-32", "be"], [[0xef, 0xbb, 0xbf], "UTF-8", ""],
              [[0xff, 0xfe], "UTF-16", "le"], [[0xfe, 0xff], "UTF-16", "be"]];
  function startsWith(bytes, mark) {
    if (bytes.length < mark.length) return false;
    for (var i = 0; i < mark.length; i++) if (bytes[i] !== mark[i]) return false;
    return true;
  }
  function utf32(bytes, little) {
    if (bytes.length % 4) throw new Error("truncated");
    var parts = [], chunk = [];
    for (var i = 0; i < bytes.length; i += 4) {
      var code = little ? bytes[i] + bytes[i + 1] * 256 + bytes[i + 2] * 65536 + bytes[i + 3] * 16777216
                        : bytes[i + 3] + bytes[i + 2] * 256 + bytes[i + 1] * 65536 + bytes[i] * 16777216;
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new Error("not a code point");
      chunk.push(String.fromCodePoint(code));
      if (chunk.length === 4096) { parts.push(chunk.join("")); chunk = []; }
    }
    parts.push(chunk.join(""));
    return parts.join("");
  }
  function textByBom(bytes) {
    for (var k = 0; k < BOMS.length; k++) {
      var mark = BOMS[k][0], encoding = BOMS[k][1], order = BOMS[k][2];
      if (!startsWith(bytes, mark)) continue;
      var rest = bytes.subarray(mark.length);
      try {
        if (encoding === "UTF-32") return utf32(rest, order === "le");
        var label = encoding === "UTF-8" ? "utf-8" : "utf-16" + order;
        return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(rest);
      } catch (error) {
        throw new Unreadable("the file starts as " + encoding + " text (its byte-order mark) but is not " + encoding + "; save it as plain text");
      }
    }
    return null;
  }
  function latin1(bytes) {
    var parts = [], chunk = [];
    for (var i = 0; i < bytes.length; i++) {
      chunk.push(String.fromCharCode(bytes[i]));
      if (chunk.length === 4096) { parts.push(chunk.join("")); chunk = []; }
    }
    parts.push(chunk.join(""));
    return parts.join("");
  }
  function parseBytes(bytes, board, fmt) {
    if (bytes.length > MAX_BYTES) throw new Unreadable(TOO_LARGE);
    var marked = textByBom(bytes);
    if (marked !== null) return parseText(marked, board, fmt);
    var head = Math.min(bytes.length, 65536), i;
    for (i = 0; i < head; i++) if (bytes[i] === 0) throw new Unreadable(BINARY);
    var text;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch (error) {
      var controls = 0;
      for (i = 0; i < head; i++) {
        var b = bytes[i];
        if (b < 32 && b !== 9 && b !== 13 && b !== 10 && b !== 12) controls++;
      }
      if (controls > Math.floor(head / 100)) throw new Unreadable(BINARY);
      text = latin1(bytes);
    }
    return parseText(text, board, fmt);
  }

  // --- detection -------------------------------------------------------------------------------------
  var FORMATS = ["array", "pairs", "chess", "csv", "json"];
  function parseText(text, board, fmt) {
    if (fmt && FORMATS.indexOf(fmt) < 0) throw new Unreadable("unknown format " + pyRepr(fmt) + "; choose one of: " + FORMATS.join(", "));
    if (!strip(text)) throw new Unreadable("the file is empty; hand in the printed array of the tour");
    fmt = fmt || detect(text);
    return READERS[fmt](text, board);
  }
  function detect(text) {
    if (lstrip(text)[0] === "{") return "json";
    var lines = splitLines(text);
    for (var i = 0; i < lines.length && i < 50; i++) if (isCsvHeader(lines[i])) return "csv";
    var found = [], pairs = findPairs(text, 0).length;
    if (pairs >= 2) found.push("pairs");
    if (chessTokens(lines).length >= 3) found.push("chess");
    var block = numericBlock(lines);
    if (block.length >= 2) {
      var twos = block.length > 2 && block.every(function (row) { return row.length === 2; });
      var cells = block.reduce(function (sum, row) { return sum + row.length; }, 0);
      if (found.indexOf("pairs") < 0) found.push(twos ? "pairs" : "array");
      else if (!twos && pairs < cells && numbersEachOnce(block)) found[found.indexOf("pairs")] = "array";
    }
    if (!found.length) throw new Unreadable("no tour found: no numbered array, (row, col) pairs or chess squares; hand in the array the program prints (or give --format)");
    if (found.length > 1) throw new Unreadable("mixed formats: the file holds both " + found[0] + " and " + found[1] + " data; keep one, or force one with --format");
    return found[0];
  }
  // _numbers_each_once: a numbered board has no counter twice (0 and dots aside); a table of degrees does.
  function numbersEachOnce(block) {
    var seen = {};
    for (var r = 0; r < block.length; r++) {
      for (var c = 0; c < block[r].length; c++) {
        var value = block[r][c];
        if (!value) continue;
        if (seen[value]) return false;
        seen[value] = true;
      }
    }
    return true;
  }
  function csvFields(line) { return line.split(",").map(function (part) { return asciiLower(stripQuotes(strip(part))); }); }
  function isCsvHeader(line) {
    var fields = csvFields(line);
    return fields.length >= 2 && fields.indexOf("row") >= 0 && (fields.indexOf("col") >= 0 || fields.indexOf("column") >= 0);
  }

  // _PAIR's findall: [(\[] S* ([+-]?[0-9]+) (?:S*[,;]|S) S* ([+-]?[0-9]+) S* [)\]], every quantifier possessive,
  // as a scan. An attempt starts at a bracket and stops at the first character out of place; the next attempt
  // starts at the next bracket, which no attempt reads past: linear. ``enough`` stops early (detection counts 2).
  function findPairs(text, enough) {
    var found = [], n = text.length, i = 0;
    function spaces(j) { while (j < n && SPACE[text[j]]) j++; return j; }
    function integer(j) {  // the end of [+-]?[0-9]+ at j, or -1
      var k = text[j] === "+" || text[j] === "-" ? j + 1 : j, e = k;
      while (e < n && isDigit(text[e])) e++;
      return e > k ? e : -1;
    }
    while (i < n && !(enough && found.length >= enough)) {
      var ch = text[i];
      if (ch !== "(" && ch !== "[") { i++; continue; }
      var a = spaces(i + 1), aEnd = integer(a);
      if (aEnd < 0) { i++; continue; }
      var j = spaces(aEnd);
      if (text[j] === "," || text[j] === ";") j = spaces(j + 1);
      else if (j === aEnd) { i++; continue; }  // neither S*[,;] nor one S
      var bEnd = integer(j);
      if (bEnd < 0) { i++; continue; }
      var close = spaces(bEnd);
      if (text[close] !== ")" && text[close] !== "]") { i++; continue; }
      found.push([text.slice(a, aEnd), text.slice(j, bEnd)]);
      i = close + 1;
    }
    return found;
  }

  // _CHESS_SPLIT: [S,;]++ | (?<!-)-++> | → | – | — | (?<=[0-9])-(?=[a-zA-Z]), as a scan (the tokens between).
  function chessSplit(s) {
    var found = [], start = 0, i = 0, n = s.length;
    while (i < n) {
      var ch = s[i], end = -1;
      if (isSeparator(ch)) { end = i + 1; while (end < n && isSeparator(s[end])) end++; }
      else if (ch === "-" && (i === 0 || s[i - 1] !== "-")) {
        var k = i; while (k < n && s[k] === "-") k++;
        if (s[k] === ">") end = k + 1;
        else if (i > 0 && isDigit(s[i - 1]) && k === i + 1 && i + 1 < n && isLetter(s[i + 1])) end = i + 1;
      } else if (ch === "→" || ch === "–" || ch === "—") end = i + 1;
      else if (ch === "-" && i > 0 && isDigit(s[i - 1]) && i + 1 < n && isLetter(s[i + 1])) end = i + 1;
      if (end < 0) { i++; continue; }
      if (i > start) found.push(s.slice(start, i));
      start = i = end;
    }
    if (start < n) found.push(s.slice(start));
    return found;
  }
  function isChess(token) {  // [a-zA-Z][0-9]{1,3}
    if (token.length < 2 || token.length > 4 || !isLetter(token[0])) return false;
    for (var i = 1; i < token.length; i++) if (!isDigit(token[i])) return false;
    return true;
  }
  function chessTokens(lines) {
    var found = [];
    lines.forEach(function (line) {
      var parts = chessSplit(strip(line));
      if (parts.length && parts.every(isChess)) parts.forEach(function (t) { found.push([t[0].toLowerCase(), parseInt(t.slice(1), 10)]); });
    });
    return found;
  }
  function isBlank(token) { return BLANKS.indexOf(token) >= 0; }
  function numericRow(line) {
    var chars = [];
    for (var i = 0; i < line.length; i++) chars.push(BORDERS[line[i]] ? " " : line[i]);
    var cleaned = strip(chars.join(""));
    if (!cleaned) return strip(line) ? [] : null;
    var parts = tokens(cleaned, isSeparator), kept = [];
    for (i = 0; i < parts.length; i++) {
      var t = parts[i];
      if (t.length > 1 && /^[-_=]+$/.test(t)) continue;  // a piece of border
      if (!isBlank(t) && !isInt(t)) return null;  // prose: nothing converted
      kept.push(t);
    }
    return kept.map(function (t) { return isBlank(t) ? null : number(t); });
  }
  function numericBlock(lines) {
    var best = [], current = [];
    for (var i = 0; i < lines.length; i++) {
      var row = numericRow(lines[i]);
      if (row === null) { if (current.length > best.length) best = current; current = []; }
      else if (row.length) current.push(row);
    }
    return current.length > best.length ? current : best;
  }

  // --- readers ---------------------------------------------------------------------------------------
  function legal(path) { for (var i = 1; i < path.length; i++) if (!knightMove(path[i - 1], path[i])) return false; return true; }
  function readArray(text) {
    var rows = numericBlock(splitLines(text));
    if (!rows.length) throw new Unreadable("no numbered array found; hand in the array the program prints, one board row a line");
    var width = rows[0].length, r, c, index;
    for (r = 0; r < rows.length; r++) {
      if (rows[r].length !== width) throw new Unreadable("ragged array: row " + (r + 1) + " has " + rows[r].length + " entries, row 1 has " + width + "; give every row of the board the same number of entries");
    }
    var n = rows.length, m = width, board = makeBoard(n, m), size = n * m;
    var values = [];
    for (r = 0; r < n; r++) for (c = 0; c < m; c++) values.push(rows[r][c]);
    var count = 0, dots = 0, zeros = 0, hasSize = false;
    for (index = 0; index < values.length; index++) {
      var v = values[index];
      if (v === null) { dots++; continue; }
      count++;
      if (!(v >= 0 && v <= size)) throw new Unreadable("number " + v + " in row " + (Math.floor(index / m) + 1) + ", column " + (index % m + 1) + " is out of range for a " + boardName(board) + " board (1.." + size + ", 0 or . for unvisited); fix that number");
      if (v === 0) zeros++;
      if (v === size) hasSize = true;
    }
    var notes = [], zeroBased = false, place = new Int32Array(size).fill(-1), permutation = zeros > 0 && count === size && !hasSize;
    for (index = 0; permutation && index < values.length; index++) {  // sorted(numbers) == list(range(size))
      if (values[index] === null) continue;
      if (place[values[index]] >= 0) permutation = false; else place[values[index]] = index;
    }
    if (permutation) {
      var path = [];
      for (var k = 0; k < size; k++) path.push([Math.floor(place[k] / m), place[k] % m]);
      if (legal(path)) { zeroBased = true; notes.push("0-based counters (0…nm−1): read as a full tour"); }
      else notes.push("0…nm−1 is not a legal 0-based tour: read as a 1-based partial tour, 0 = unvisited");
    } else if (dots && zeros === 1 && !hasSize) {
      zeroBased = true;
      notes.push("0-based counters with dots for unvisited squares");
    }
    var byCounter = [], counters = [];  // counter -> its squares, in reading order; counters in increasing order
    for (index = 0; index < values.length; index++) {
      v = values[index];
      if (v === null || (v === 0 && !zeroBased)) continue;
      var counter = zeroBased ? v + 1 : v;
      (byCounter[counter] = byCounter[counter] || []).push([Math.floor(index / m), index % m]);
    }
    for (k = 0; k < byCounter.length; k++) if (byCounter[k]) counters.push(k);
    if (!counters.length) throw new Unreadable("the array holds no visited square (all 0); hand in the array with the tour's numbers");
    var shown = function (x) { return zeroBased ? x - 1 : x; };
    var squares = [], labels = [], problems = [], expected = 1;
    counters.forEach(function (counter) {
      if (counter !== expected) {
        var what = counter === expected + 1 ? String(shown(expected)) : shown(expected) + "…" + shown(counter - 1);
        problems.push([Math.max(expected - 1, 1), "number " + what + " is missing"]);
      }
      var places = byCounter[counter];
      if (places.length > 1) {
        problems.push([Math.max(counter - 1, 1), "number " + shown(counter) + " is written twice, at " + places.map(name).join(" and ")]);
        if (squares.length) {  // of two squares holding one number, the one a knight reaches (a stable sort)
          var last = squares[squares.length - 1];
          places = places.filter(function (s) { return knightMove(last, s); }).concat(places.filter(function (s) { return !knightMove(last, s); }));
        }
      }
      squares.push(places[0]);
      labels.push(counter);
      expected = counter + 1;
    });
    return { format: "array", board: board, squares: squares, labels: labels, problems: problems, notes: notes };
  }
  function readPairs(text, board) {
    var pairs = findPairs(text, 0).map(function (p) { return [number(p[0]), number(p[1])]; });
    if (pairs.length < 2) {
      var rows = numericBlock(splitLines(text));
      if (!rows.length || rows.some(function (row) { return row.length !== 2 || row[0] === null || row[1] === null; })) throw new Unreadable("no list of (row, col) pairs found; give one square a line as 'row col', or as (row, col)");
      pairs = rows;
    }
    return fromCoordinates("pairs", pairs, board);
  }
  function csvInteger(field) { var s = strip(field); if (!isInt(s)) throw new Error("not a number"); return number(s); }
  function readCsv(text, board) {
    var lines = splitLines(text).filter(function (line) { return strip(line); });
    var headerAt = -1;
    for (var i = 0; i < lines.length; i++) if (isCsvHeader(lines[i])) { headerAt = i; break; }
    if (headerAt < 0) throw new Unreadable("no CSV header naming row and col; start the table with 'step,row,col'");
    var header = csvFields(lines[headerAt]);
    var rAt = header.indexOf("row"), cAt = header.indexOf("col") >= 0 ? header.indexOf("col") : header.indexOf("column");
    var sAt = -1;
    ["step", "k", "move", "number", "n"].some(function (word) { sAt = header.indexOf(word); return sAt >= 0; });
    var records = [];
    for (i = headerAt + 1; i < lines.length; i++) {
      var fields = lines[i].split(",").map(function (part) { return stripQuotes(strip(part)); });
      try {
        var step = sAt >= 0 ? csvInteger(field(fields, sAt)) : records.length;
        records.push([step, csvInteger(field(fields, rAt)), csvInteger(field(fields, cAt))]);
      } catch (error) {
        if (error instanceof Unreadable) throw error;
        throw new Unreadable("CSV line " + (i + 1) + " is not 'step,row,col' numbers: " + pyRepr(Array.from(strip(lines[i])).slice(0, 40).join("")) + "; fix or remove it");
      }
    }
    if (!records.length) throw new Unreadable("the CSV table has a header but no squares; give one square a line");
    records.sort(function (a, b) { return a[0] - b[0]; });  // stable, as Python's
    return fromCoordinates("csv", records.map(function (rec) { return [rec[1], rec[2]]; }), board);
  }
  function field(fields, at) { if (at >= fields.length) throw new Error("no such field"); return fields[at]; }
  function readChess(text, board) {
    var found = chessTokens(splitLines(text));
    if (!found.length) throw new Unreadable("no chess squares found; give the squares in order as a1 c2 …");
    var files = found.map(function (t) { return t[0].charCodeAt(0) - 97; }), ranks = found.map(function (t) { return t[1]; });
    if (!board) {
      var side = isqrt(found.length);
      board = side * side === found.length && maxOf(ranks) <= side && maxOf(files) < side ? makeBoard(side, side) : makeBoard(maxOf(ranks), maxOf(files) + 1);
    }
    var squares = found.map(function (_, i) { return [board.n - ranks[i], files[i]]; });
    return { format: "chess", board: board, squares: squares, labels: squares.map(function (_, i) { return i + 1; }), problems: [], notes: [] };
  }

  // JSON: refused past MAX_JSON_DEPTH, holding a fraction or a constant, or a number past MAX_DIGITS, as
  // formats._read_json: a scan of the text outside its strings first, then JSON.parse.
  function jsonScan(text) {
    var depth = 0, deepest = 0, n = text.length, i = 0;
    while (i < n) {  // _json_depth: strings (to the closing quote, or the end) left out, then the brackets counted
      var ch = text[i];
      if (ch === '"') {
        i++;
        while (i < n) { if (text[i] === "\\") i += 2; else if (text[i++] === '"') break; }
        continue;
      }
      if (ch === "[" || ch === "{") { depth++; if (depth > deepest) deepest = depth; }
      else if (ch === "]" || ch === "}") depth--;
      i++;
    }
    if (deepest > MAX_JSON_DEPTH) throw new Unreadable("the JSON nests more than " + MAX_JSON_DEPTH + " deep; hand in knight tour --json's output unchanged");
    for (i = 0; i < n;) {  // the numbers, as json's scanner reads them: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?
      ch = text[i];
      if (ch === '"') {
        i++;
        while (i < n) { if (text[i] === "\\") i += 2; else if (text[i++] === '"') break; }
        continue;
      }
      var constant = (ch === "N" || ch === "I" || ch === "-") && ["NaN", "Infinity", "-Infinity"].filter(function (word) { return text.startsWith(word, i); })[0];
      if (constant) throw new Unreadable("the JSON holds " + constant + ", not a number; hand in knight tour --json's output unchanged");
      if (!(ch === "-" || isDigit(ch))) { i++; continue; }
      var start = i, k = ch === "-" ? i + 1 : i, digitsAt = k;
      if (text[k] === "0") k++; else while (k < n && isDigit(text[k])) k++;
      if (k === digitsAt) { i = k + 1; continue; }  // not a number: JSON.parse refuses it
      var end = k;
      if (text[k] === "." && isDigit(text[k + 1] || "")) { end = k + 1; while (end < n && isDigit(text[end])) end++; }
      if ((text[end] === "e" || text[end] === "E")) {
        var e = end + 1;
        if (text[e] === "+" || text[e] === "-") e++;
        if (isDigit(text[e] || "")) { while (e < n && isDigit(text[e])) e++; end = e; }
      }
      if (end > k) throw new Unreadable("the JSON holds the fraction " + text.slice(start, Math.min(end, start + 20)) + "; rows, columns and the board are whole numbers");
      number(text.slice(start, k));
      i = k;
    }
  }
  function isInteger(value) { return typeof value === "number" && Number.isInteger(value); }
  function readJson(text) {
    jsonScan(text);
    var data;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Unreadable("invalid JSON (" + String(error.message).replace(/^JSON\.parse: /, "") + "); hand in knight tour --json's output unchanged");
    }
    var has = function (key) { return Object.prototype.hasOwnProperty.call(data, key); };
    if (typeof data !== "object" || data === null || Array.isArray(data) || !has("squares") || !has("board")) throw new Unreadable("the JSON has no 'board' and 'squares'; hand in knight tour --json's output unchanged");
    var size = data.board, squares = data.squares;
    var pair = function (x) { return Array.isArray(x) && x.length === 2 && isInteger(x[0]) && isInteger(x[1]); };
    if (!(pair(size) && Array.isArray(squares) && squares.every(pair))) throw new Unreadable("the JSON's 'board' or 'squares' is not numbers: board [n, m], squares [[row, col], …]");
    var own = makeBoard(size[0], size[1]);
    if (!squares.length) throw new Unreadable("the JSON's 'squares' is empty; hand in a tour");
    return { format: "json", board: own, squares: squares.map(function (sq) { return [sq[0] + 0, sq[1] + 0]; }),
             labels: squares.map(function (_, i) { return i + 1; }), problems: [], notes: ["0-based squares"] };
  }
  function fromCoordinates(fmt, pairs, board) {
    var rows = pairs.map(function (p) { return p[0]; }), cols = pairs.map(function (p) { return p[1]; });
    var noZero = rows.indexOf(0) < 0 && cols.indexOf(0) < 0;
    var oneBased = board ? noZero && (maxOf(rows) >= board.n || maxOf(cols) >= board.m) : noZero;
    var shift = oneBased ? 1 : 0;
    var squares = pairs.map(function (p) { return [p[0] - shift, p[1] - shift]; });
    var notes = [oneBased ? "1-based (row, col): no coordinate is 0" : "0-based (row, col)"];
    if (!board) {
      var side = isqrt(squares.length);
      if (side * side === squares.length && squares.every(function (s) { return s[0] >= 0 && s[0] < side && s[1] >= 0 && s[1] < side; })) board = makeBoard(side, side);
      else {
        board = makeBoard(maxOf(squares.map(function (s) { return s[0]; })) + 1, maxOf(squares.map(function (s) { return s[1]; })) + 1);
        notes.push("board " + boardName(board) + " inferred from the largest row and column (give --board to be sure)");
      }
    }
    return { format: fmt, board: board, squares: squares, labels: squares.map(function (_, i) { return i + 1; }), problems: [], notes: notes };
  }
  var READERS = { array: readArray, pairs: readPairs, chess: readChess, csv: readCsv, json: readJson };

  // --- the assignment: formats.parse_board, cli/squares.parse_square, check.assigned_start -------------
  function parseBoard(text) {
    var match = new RegExp("^([0-9]{1,9})(?:[" + SPACES + "]*[xX×][" + SPACES + "]*([0-9]{1,9}))?$").exec(strip(text).slice(0, 40));
    if (!match) throw new BadAssignment("the board takes N or NxM (e.g. 8 or 6x8), got " + pyRepr(text.slice(0, 40)));
    var n = parseInt(match[1], 10), m = match[2] ? parseInt(match[2], 10) : n;
    if (n * m > MAX_BOARD_SQUARES) throw new BadAssignment("the board " + n + "x" + m + " has " + grouped(n * m) + " squares; submissions are graded on boards of at most " + grouped(MAX_BOARD_SQUARES));
    if (n < 1 || m < 1) throw new BadAssignment("the board " + n + "x" + m + " has no squares");
    return { n: n, m: m, size: n * m };
  }
  function parseStart(text, board) {
    var s = strip(text).slice(0, 40), pair = /^\(?[ \t]*(-?[0-9]{1,9})[ \t]*[, \t][ \t]*(-?[0-9]{1,9})[ \t]*\)?$/.exec(s);
    var chess = /^([a-zA-Z])([0-9]{1,9})$/.exec(s), row, col;
    if (pair) { row = parseInt(pair[1], 10); col = parseInt(pair[2], 10); }
    else if (chess && board) { row = board.n - parseInt(chess[2], 10); col = chess[1].toLowerCase().charCodeAt(0) - 97; }
    else if (chess) throw new BadAssignment("the start " + s + ": a chess name needs the board's size; give the board, or write ROW,COL");
    else throw new BadAssignment("the start takes a square as ROW,COL 0-based from the top-left, or a chess name like b7; got " + pyRepr(s));
    if (row < 0 || col < 0) throw new BadAssignment("the start " + row + "," + col + " is off the board: rows and columns count from 0");
    if (board && !contains(board, [row, col])) throw new BadAssignment("the start " + row + "," + col + " is off the assigned " + boardName(board) + " board; give a row from 0 to " + (board.n - 1) + " and a column from 0 to " + (board.m - 1));
    if ((row + 1) * (col + 1) > MAX_BOARD_SQUARES) throw new BadAssignment("the start " + row + "," + col + " is on no board of at most " + grouped(MAX_BOARD_SQUARES) + " squares (the largest graded)");
    return [row, col];
  }

  // --- checking: knight/grading/check.py's check, _rule and _assigned ----------------------------------
  function check(s, assignment) {
    var b = s.board, squares = s.squares, labels = s.labels;
    var errors = [], offBoard = [], repeated = new Map(), firstSeen = new Float64Array(b.size), illegal = null;
    squares.forEach(function (sq, i) {
      var step = i ? labels[i - 1] : 1;
      if (!contains(b, sq)) {
        offBoard.push({ number: labels[i], square: sq });
        errors.push([step, 0, "step " + step + ": square " + labels[i] + " at " + name(sq) + " is off the " + boardName(b) + " board", sq]);
        return;
      }
      var at = sq[0] * b.m + sq[1];
      if (firstSeen[at]) {
        if (!repeated.has(at)) repeated.set(at, { square: sq, numbers: [firstSeen[at]] });
        repeated.get(at).numbers.push(labels[i]);
        errors.push([step, 2, "step " + step + ": square " + name(sq) + " is visited twice (numbers " + firstSeen[at] + " and " + labels[i] + ")", sq]);
      } else firstSeen[at] = labels[i];
      if (i && contains(b, squares[i - 1]) && !knightMove(squares[i - 1], sq)) {
        var message = "step " + step + ": " + name(squares[i - 1]) + " → " + name(sq) + " is not a knight move";
        illegal = illegal || message;
        errors.push([step, 1, message, sq]);
      }
    });
    s.problems.forEach(function (p) { errors.push([p[0], 3, "step " + p[0] + ": " + p[1], null]); });
    errors.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });  // stable, as Python's
    var firstError = errors.length ? errors[0][0] : null, unvisited = [];
    for (var at = 0; at < b.size; at++) if (!firstSeen[at]) unvisited.push([Math.floor(at / b.m), at % b.m]);
    var verdict = errors.length ? NOT_A_TOUR : squares.length === b.size ? FULL : PARTIAL;
    var closed = verdict === FULL && squares.length >= 3 && knightMove(squares[0], squares[squares.length - 1]);
    var result = {
      format: s.format, board: [b.n, b.m], notes: s.notes, verdict: verdict, length: squares.length, closed: closed,
      first_error_step: firstError, errors: errors.map(function (e) { return e[2]; }),
      repeated: Array.from(repeated.values()), off_board: offBoard, unvisited: unvisited,
      rule_followed: null, rule_broken_at: null, rule_allowed: [], rule_chosen: null,
      assigned: null, assigned_note: "", closed_assigned: false,
      error_square: firstError === null ? null : errors[0][3]
    };
    rule(s, result);
    if (assignment) {
      result.closed_assigned = assignment.closed;
      if (assignment.board || assignment.start) assigned(s, result, assignment.board, assignment.start);
      if (assignment.closed && verdict === FULL && !closed) result.assigned_note = [result.assigned_note, "an open tour, a closed one assigned"].filter(Boolean).join("; ");
    }
    result.passed = verdict === FULL && result.assigned !== false && (closed || !result.closed_assigned);
    result.summary = verdict === FULL ? "full tour, " + (closed ? "closed" : "open") : verdict === PARTIAL ? "partial tour of " + squares.length + " of " + b.size + " squares" : "not a tour";
    result.advice = advice(result);
    return result;
  }
  function rule(s, result) {  // the homework's rule on the legal part: each move to a square of lowest degree
    var b = s.board, squares = s.squares, labels = s.labels, end = squares.length, n = b.n, m = b.m;
    if (!contains(b, squares[0])) return;
    if (result.first_error_step !== null) {
      for (end = 1; end <= squares.length; end++) if (labels[end - 1] >= result.first_error_step) break;
    }
    var visited = new Uint8Array(b.size), checked = false;
    var free = function (r, c) { return r >= 0 && r < n && c >= 0 && c < m && !visited[r * m + c]; };
    for (var i = 0; i < end; i++) {
      var r = squares[i][0], c = squares[i][1];
      visited[r * m + c] = 1;
      if (i + 1 >= end) break;
      var options = [], degrees = [], low = 9;
      MOVES.forEach(function (d) { if (free(r + d[0], c + d[1])) options.push([r + d[0], c + d[1]]); });
      if (options.length < 2) continue;
      options.forEach(function (o) {
        var degree = 0;
        MOVES.forEach(function (d) { if (free(o[0] + d[0], o[1] + d[1])) degree++; });
        degrees.push(degree);
        if (degree < low) low = degree;
      });
      var allowed = options.filter(function (_, k) { return degrees[k] === low; });
      checked = true;
      var next = squares[i + 1];
      if (!allowed.some(function (sq) { return sq[0] === next[0] && sq[1] === next[1]; })) {
        result.rule_followed = false;
        result.rule_broken_at = labels[i];
        result.rule_allowed = allowed.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
        result.rule_chosen = next;
        return;
      }
    }
    result.rule_followed = checked ? true : null;
  }
  function assigned(s, result, board, start) {
    var notes = [], ok = true, first = s.squares[0];
    if (board && (board.n !== s.board.n || board.m !== s.board.m)) { ok = false; notes.push("board " + boardName(s.board) + ", assigned " + boardName(board)); }
    if (start && (start[0] !== first[0] || start[1] !== first[1])) { ok = false; notes.push("starts at " + name(first) + ", assigned " + name(start)); }
    result.assigned = ok;
    result.assigned_note = ok ? "the assigned exercise" : "not the assigned exercise: " + notes.join("; ");
  }
  function advice(result) {
    if (result.verdict === NOT_A_TOUR) return "Fix this first: " + result.errors[0] + "; every step must be a knight move to a square on the board not yet visited, and every number from 1 to the last written once.";
    if (result.verdict === PARTIAL) return "The tour stops after " + result.length + " squares with " + result.unvisited.length + " unvisited; if the program got stuck it should say so, otherwise let it run to the end.";
    if (result.assigned === false) return "A full tour, but " + result.assigned_note + "; run the program on the assigned board from the assigned start square.";
    if (result.closed_assigned && !result.closed) return "A full tour, but open: the assignment asks for a closed one (the last square a knight move from the first).";
    if (result.rule_followed === false) return "A full tour, but step " + result.rule_broken_at + " does not take a square of lowest degree (the rule allowed " + result.rule_allowed.map(name).join(", ") + "); check the degree count.";
    return "Nothing to fix: a full tour that follows the rule.";
  }
  function exerciseNote(result) {
    if (result.assigned === false || (result.closed_assigned && result.verdict === FULL && !result.closed)) return "not passed: " + result.assigned_note;
    if (!result.passed) return "not passed: " + result.summary;
    return "passed: a full " + (result.closed_assigned ? "closed " : "") + "tour of the assigned exercise";
  }
  function ruleSentence(result) {
    if (result.rule_followed === null) return "no choice to check";
    if (result.rule_followed) return result.verdict === NOT_A_TOUR ? "followed up to the first error (step " + result.first_error_step + ")" : "followed at every step";
    return "not followed at step " + result.rule_broken_at + ": it went to " + name(result.rule_chosen) + ", the rule allowed " + result.rule_allowed.map(name).join(", ");
  }

  // --- the page ----------------------------------------------------------------------------------------
  var SVG = "http://www.w3.org/2000/svg";
  function el(tag, attrs, parent) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (a) { node.setAttribute(a, attrs[a]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function drawBoard(s, result, holder) {  // labelled as the handout's boards: row and column numbers from 0
    holder.textContent = "";
    var b = s.board;
    if (b.size > DRAW_UP_TO) { holder.textContent = "(the " + boardName(b) + " board is too large to draw here)"; return; }
    var cell = 40, margin = 22;
    var svg = el("svg", { viewBox: (-margin) + " " + (-margin) + " " + (b.m * cell + margin + 2) + " " + (b.n * cell + margin + 2), role: "img", "aria-label": "the tour on its " + boardName(b) + " board, rows and columns numbered from 0" });
    var stop = result.first_error_step, bad = {}, open = {}, r, c;
    result.repeated.forEach(function (rep) { bad[rep.square[0] * b.m + rep.square[1]] = true; });
    result.unvisited.forEach(function (sq) { open[sq[0] * b.m + sq[1]] = true; });
    for (r = 0; r < b.n; r++) {
      el("text", { x: -margin / 2, y: r * cell + cell / 2 + 5, "class": "coord" }, svg).textContent = r;
      for (c = 0; c < b.m; c++) {
        var cls = bad[r * b.m + c] ? "sq repeated" : open[r * b.m + c] ? "sq unvisited" : (r + c) % 2 ? "sq dark" : "sq light";
        el("rect", { x: c * cell, y: r * cell, width: cell, height: cell, "class": cls }, svg);
      }
    }
    for (c = 0; c < b.m; c++) el("text", { x: c * cell + cell / 2, y: -margin / 2 + 5, "class": "coord" }, svg).textContent = c;
    var centre = function (sq) { return [sq[1] * cell + cell / 2, sq[0] * cell + cell / 2]; };
    var points = [], i;
    for (i = 0; i < s.squares.length; i++) {
      if (!contains(b, s.squares[i]) || (stop !== null && i && s.labels[i - 1] >= stop)) break;
      points.push(centre(s.squares[i]).join(","));
    }
    el("polyline", { points: points.join(" "), "class": "path" }, svg);
    var wrong = result.error_square;
    if (wrong && contains(b, wrong)) {
      if (i > 0 && contains(b, s.squares[i - 1])) {
        var a = centre(s.squares[i - 1]), e = centre(wrong);
        el("line", { x1: a[0], y1: a[1], x2: e[0], y2: e[1], "class": "error-move" }, svg);
      }
      el("rect", { x: wrong[1] * cell + 2, y: wrong[0] * cell + 2, width: cell - 4, height: cell - 4, "class": "error-square" }, svg);
    }
    var drawn = {};
    s.squares.forEach(function (sq, k) {
      if (!contains(b, sq) || drawn[sq[0] * b.m + sq[1]]) return;
      drawn[sq[0] * b.m + sq[1]] = true;
      el("text", { x: sq[1] * cell + cell / 2, y: sq[0] * cell + cell / 2 + 5, "class": "label" }, svg).textContent = s.labels[k];
    });
    if (contains(b, s.squares[0])) { var st = centre(s.squares[0]); el("circle", { cx: st[0], cy: st[1], r: 7, "class": "start" }, svg); }
    holder.appendChild(svg);
  }

  function $(id) { return document.getElementById(id); }
  function say(box, text, cls) {
    var p = document.createElement("p");
    p.textContent = text;
    if (cls) p.className = cls;
    box.appendChild(p);
  }
  function readAssignment() {  // the fields: {board, start, closed}; a bad one throws BadAssignment
    var boardText = strip($("board-size").value), startText = strip($("start").value);
    var board = boardText ? parseBoard(boardText) : null;
    return { board: board, start: startText ? parseStart(startText, board) : null, closed: $("closed").checked };
  }
  function describeAssignment() {
    var box = $("exercise"), a;
    try { a = readAssignment(); } catch (error) {
      if (!(error instanceof BadAssignment)) throw error;
      box.textContent = "The assigned exercise: " + error.message + ".";
      return;
    }
    if (!a.board && !a.start && !a.closed) { box.textContent = "No exercise assigned: the page checks the tour on the board it is written on."; return; }
    box.textContent = "The assigned exercise: a " + (a.closed ? "closed " : "") + "tour" + (a.board ? " of the " + boardName(a.board) + " board" : "") + (a.start ? " from " + name(a.start) : "") + ".";
  }

  var source = null;  // the picked file's bytes, until the text is edited
  var runs = 0;
  function show(report, s) {
    var box = $("verdict"), holder = $("board");
    window.knightCheckReport = report;
    box.textContent = "";
    holder.textContent = "";
    box.dataset.verdict = report.verdict;
    box.dataset.passed = String(report.passed);
    box.dataset.runs = String(++runs);
    if (report.verdict === "unreadable") {
      box.className = "verdict unreadable";
      say(box, "Cannot read this: " + report.errors[0] + ".", "headline");
      return;
    }
    box.className = "verdict " + (report.passed ? "good" : "bad");
    say(box, "Verdict: " + report.summary + ".", "headline");
    if (report.errors.length) {
      say(box, "First error: " + report.errors[0] + ".");
      report.errors.slice(1, 6).forEach(function (e) { say(box, "also: " + e, "also"); });
      if (report.errors.length > 6) say(box, "… and " + (report.errors.length - 6) + " more errors", "also");
    }
    report.repeated.forEach(function (rep) { say(box, "Repeated: " + name(rep.square) + " holds numbers " + rep.numbers.join(" and ") + "."); });
    if (report.unvisited.length) say(box, "Never visited: " + report.unvisited.slice(0, SHOW_UP_TO).map(name).join(" ") + (report.unvisited.length > SHOW_UP_TO ? " … (" + report.unvisited.length + " in all)" : "") + ".");
    if (report.rule_followed !== null) say(box, "Rule (lowest degree at every step): " + ruleSentence(report) + ".");
    if (report.assigned !== null || report.closed_assigned) say(box, "Exercise: " + exerciseNote(report) + ".", "exercise-verdict");
    say(box, report.advice);
    say(box, "Format: " + report.format + (report.notes.length ? " (" + report.notes.join("; ") + ")" : "") + "; board " + report.board.join("x") + "; start " + name(s.squares[0]) + ".", "notes");
    drawBoard(s, report, holder);
  }
  function unreadable(message) {
    return { verdict: "unreadable", summary: "unreadable", errors: [message], passed: false, first_error_step: null, repeated: [], unvisited: [] };
  }
  function run() {
    var assignment, s;
    try { assignment = readAssignment(); } catch (error) {
      if (!(error instanceof BadAssignment)) throw error;
      show(unreadable(error.message));
      return;
    }
    try {
      var text = $("tour").value;
      if (!source && text.length > MAX_BYTES) throw new Unreadable(TOO_LARGE);  // more characters than bytes allowed
      var bytes = source || new TextEncoder().encode(text);  // a paste is read as its UTF-8 bytes, as the command reads it
      s = parseBytes(bytes, assignment.board, $("format").value || null);
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      show(unreadable(error.message));
      return;
    }
    show(check(s, assignment), s);
  }

  function start() {
    var tour = $("tour"), timer = null;
    $("check").addEventListener("click", function () { clearTimeout(timer); run(); });  // no second check after it
    ["board-size", "start", "closed"].forEach(function (id) { $(id).addEventListener("input", describeAssignment); });
    tour.addEventListener("input", function () {
      source = null;
      clearTimeout(timer);
      $("pending").textContent = "";
      if (tour.value.length > MAX_BYTES) { run(); return; }  // refused at once, whatever its bytes
      if (tour.value.length > AUTO_CHECK_UP_TO) { $("pending").textContent = "A long text: press Check."; return; }
      timer = setTimeout(run, 300);
    });
    $("file").addEventListener("change", function (event) {
      var file = event.target.files[0];
      if (!file) return;
      if (file.size > MAX_BYTES) { source = null; tour.value = ""; show(unreadable(TOO_LARGE)); return; }
      file.arrayBuffer().then(function (buffer) {
        source = new Uint8Array(buffer);
        try { tour.value = textByBom(source) || new TextDecoder("utf-8").decode(source); } catch (error) { tour.value = ""; }
        run();
      });
    });
    $("max-bytes").textContent = Math.floor(MAX_BYTES / 1000000) + " MB";
    describeAssignment();
  }
  window.knightCheck = { MAX_BYTES: MAX_BYTES, MAX_BOARD_SQUARES: MAX_BOARD_SQUARES, MAX_DIGITS: MAX_DIGITS,
                         MAX_JSON_DEPTH: MAX_JSON_DEPTH, LINE_BREAKS: LINE_BREAKS, SPACES: SPACES, TOO_LARGE: TOO_LARGE };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
