"""The browser app (``purestate serve``): a Starlette app in the imperative shell.

``app.create_app(runs)`` builds it; ``pages`` writes the HTML shells, ``play`` keeps the games
people play, ``lab`` the MENACE labs (training runs in the browser, saved as run folders),
``runs`` reads the runs folder (never outside it), ``travel`` folds a run's recorded games into
its learned tables, ``charts`` draws learning curves, and ``static/`` holds the CSS and the
JavaScript modules the pages load. docs/web.md explains the routes and how to add a page.
"""
