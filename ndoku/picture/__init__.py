"""Pictures of puzzles: SVG, PNG and PDF drawn from one scene, and puzzle books.

- :mod:`.scene`: fills, lines and labels in points, which every writer draws alike;
- :mod:`.drawing`: a puzzle's scene (walls, values, pencil marks, a step highlighted);
- :mod:`.svg`, :mod:`.raster`, :mod:`.pdf`: the writers (PNG with Pillow, PDF with
  ReportLab: the ``print`` extra);
- :mod:`.book`: pages of puzzles with headers, their solutions at the back.
"""
