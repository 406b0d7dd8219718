"""Pictures of puzzles: SVG, PNG and PDF drawn from one scene, and puzzle books.

- :mod:`.scene`: fills, lines, spots and labels in points, which every writer draws alike;
- :mod:`.drawing`: a puzzle's scene (walls, values, pencil marks, a step highlighted);
- :mod:`.rules`: its variant rules (cages, thermometers, arrows, dots, lines, outside clues);
- :mod:`.svg`, :mod:`.raster`, :mod:`.pdf`: the writers (PNG with Pillow, PDF with
  ReportLab: the ``print`` extra);
- :mod:`.book`: pages of puzzles with headers, their solutions at the back.
"""
