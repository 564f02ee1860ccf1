"""Grading students' tours (issue 13): read a submission, check it, and write a gradebook.

* :mod:`knight.grading.formats` reads a submission's text in any of the hand-in formats
  (numbered array, (row, col) pairs, chess notation, CSV, `knight tour --json`) into a
  :class:`~knight.grading.formats.Submission`: the squares in visiting order, the board, and what the
  reading noticed (a counter written twice, a counter missing);
* :mod:`knight.grading.check` checks it: the verdict, the first illegal step, repeated and unvisited
  squares, the homework's lowest-degree rule, which of our methods reproduces it;
* :mod:`knight.grading.gradebook` grades a directory: ``gradebook.csv``, a feedback page per student,
  copied tours flagged, scores from a rubric;
* :mod:`knight.grading.files` reads a class's files as untrusted (regular files only, bounded, links
  kept inside the folder) and :mod:`knight.grading.output` writes OUT (locked, each file replaced whole).

Steps are numbered as in :class:`knight.engine.Tour`: the k-th square visited holds k (from 1), and
step k is the move from square k to square k + 1.
"""

from knight.grading.formats import FORMATS, Submission, Unreadable, parse_text, read_file

__all__ = ["FORMATS", "Submission", "Unreadable", "parse_text", "read_file"]
