"""HTML routes: Jinja2 pages, htmx fragments and per-viewer fragment diffing."""
