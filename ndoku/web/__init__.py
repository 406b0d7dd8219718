"""ndoku in a browser: the page and the JSON API that ``ndoku serve`` runs (the serve extra:
Starlette and uvicorn).

Every answer comes from the same tasks as the commands' and is verified the same way; the
app (:mod:`.app`) only reads asks (:mod:`.asks`), runs the task (:mod:`.answers`) and guards
the door.
"""
