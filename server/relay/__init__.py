"""Relay processes: WebSocket fronts that serve spectators' view streams off the game
server's core (:mod:`server.transport.relay`), and the server's side of them
(:mod:`server.relay.host`)."""
