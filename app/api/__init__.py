"""JSON routes: REST and the websocket."""
