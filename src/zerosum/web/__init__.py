"""`zerosum serve`: the project's page in the browser, served from this machine.

`app.create_app` builds the Starlette application (its pages, its JSON routes and the
`guard` in front of them; `matrix`, `envelope`, `tree` and `ordering` make the routes'
answers); `zerosum.cli.serve` binds it to an address and runs it on uvicorn.
Every page, script and style sheet is a file of `static/`, shipped with the package: the page
works offline and fetches nothing from elsewhere.
"""
