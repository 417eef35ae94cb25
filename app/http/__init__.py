"""What the JSON API (``app.api``) and the HTML pages (``app.web``) share: how a request
carries its tokens, the command body, the links of a new table, error wording, and the
websocket's stream formats. Neither of them imports the other; both import this."""
