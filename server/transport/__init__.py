"""The only package that imports websockets: it pumps bytes between sockets and the app."""
