"""TLS failures in the command-line clients (an operator's report): a self-signed or
private-CA certificate, a wrong hostname, or ``wss://`` to the plain port made ``play``,
``watch`` and ``account`` print a traceback ending in ``trio.BrokenResourceError``, and
``bots`` "failed: BrokenResourceError: " with nothing after. Each now says which URL and
what failed; ``SSL_CERT_FILE`` makes the SDK trust a private CA."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_serve_options import main_each

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")

#: A TLS front for a plain server (as a reverse proxy would be): argv cert, key, backend port;
#: prints its port.
_PROXY = r"""
import socket, ssl, sys, threading
cert, key, backend = sys.argv[1], sys.argv[2], int(sys.argv[3])
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
listener = socket.create_server(("127.0.0.1", 0))
print(listener.getsockname()[1], flush=True)

def pump(src, dst):
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

def serve(raw):
    try:
        tls = ctx.wrap_socket(raw, server_side=True)
    except OSError:
        raw.close()
        return
    plain = socket.create_connection(("127.0.0.1", backend))
    threading.Thread(target=pump, args=(tls, plain), daemon=True).start()
    pump(plain, tls)

while True:
    conn, _ = listener.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
"""


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int, int]]:
    """(the private CA's certificate, the plain server's port, its TLS front's port: a
    certificate for 127.0.0.1 only, signed by that CA)."""
    tmp = tmp_path_factory.mktemp("tls")
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
             "ca.pem", "-days", "2", "-subj", "/CN=Manawire test CA", cwd=tmp)
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out",
             "server.csr", "-subj", "/CN=127.0.0.1", cwd=tmp)
    (tmp / "ext").write_text("subjectAltName=IP:127.0.0.1\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "ext", cwd=tmp)
    server = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--host",
                               "127.0.0.1", "--port", "0", "--data-dir", str(tmp / "data")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proxy: subprocess.Popen[str] | None = None
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split()[3].rsplit(":", 1)[1])
        proxy = subprocess.Popen([sys.executable, "-c", _PROXY, str(tmp / "server.pem"),
                                  str(tmp / "server.key"), str(port)],
                                 stdout=subprocess.PIPE, text=True)
        assert proxy.stdout is not None
        yield tmp / "ca.pem", port, int(proxy.stdout.readline())
    finally:
        if proxy is not None:
            proxy.kill()
            proxy.communicate(timeout=30)
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=60)


def _manawire(*commands: tuple[list[str], Path | None]
              ) -> list[subprocess.CompletedProcess[str]]:
    """``manawire ARGS`` for each (args, the CA file SSL_CERT_FILE names, or None: unset),
    with neither SSL_CERT_DIR nor MANAWIRE_TOKEN set; all in one interpreter (each process
    spends a second of CPU importing the server first): :func:`main_each`."""
    return main_each([(args, {"SSL_CERT_FILE": None if ca is None else str(ca),
                              "SSL_CERT_DIR": None, "MANAWIRE_TOKEN": None})
                      for args, ca in commands])


def _said(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "BrokenResourceError" not in done.stderr, \
        done.stderr
    for word in words:
        assert word in done.stderr, done.stderr
    return done.stderr


def test_an_untrusted_certificate_is_said_with_how_to_trust_its_ca(
        servers: tuple[Path, int, int]) -> None:
    ca, _plain, tls = servers
    url = f"wss://127.0.0.1:{tls}"
    account, watch, bots, trusted = _manawire(
        (["account", "--url", url], None), (["watch", url, "someroom"], None),
        (["bots", "--url", url, "--games", "1"], None),
        (["account", "--url", url], ca))  # trusting the private CA
    _said(account, f"manawire account: can't connect to {url} "
          "over TLS: the server's certificate is not trusted", "SSL_CERT_FILE=/path/to/ca.pem")
    _said(watch, f"manawire watch: can't connect to {url}", "not trusted")
    _said(bots, f"manawire bots: can't connect to {url} over TLS", "not trusted")
    # Trusting the private CA, the same URL works.
    done = trusted
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["token"]


def test_an_ssl_cert_file_already_set_but_wrong_is_said_as_such(
        servers: tuple[Path, int, int], tmp_path: Path) -> None:
    """An operator with SSL_CERT_FILE pointing at a file that doesn't exist was told to set
    SSL_CERT_FILE: the advice now says what is wrong with the file it names."""
    _ca, _plain, tls = servers
    url = f"wss://127.0.0.1:{tls}"
    missing = tmp_path / "nonexistent.pem"
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    other = tmp_path / "other"
    other.mkdir()
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "k", "-out",
             "other.pem", "-days", "2", "-subj", "/CN=Another CA", cwd=other)
    to_missing, to_garbage, to_other = _manawire(*((["account", "--url", url], ca)
                                                   for ca in (missing, garbage,
                                                              other / "other.pem")))
    said = _said(to_missing, "not trusted",
                 f"SSL_CERT_FILE is set to {missing}, which is not a file")
    assert "set SSL_CERT_FILE=/path/to/ca.pem" not in said
    _said(to_garbage,
          f"SSL_CERT_FILE is set to {garbage}, which holds no certificate this client can read")
    _said(to_other,
          f"SSL_CERT_FILE is set to {other / 'other.pem'}, but no certificate in it vouches")


def test_a_certificate_for_another_name_is_a_hostname_mismatch(
        servers: tuple[Path, int, int]) -> None:
    ca, _plain, tls = servers
    (done,) = _manawire((["account", "--url", f"wss://localhost:{tls}"], ca))
    _said(done,
          f"can't connect to wss://localhost:{tls} over TLS", "not for localhost",
          "hostname mismatch")


def test_wss_to_the_plain_port_says_it_is_not_a_tls_port(
        servers: tuple[Path, int, int]) -> None:
    _ca, plain, _tls = servers
    url = f"wss://127.0.0.1:{plain}"
    *clients, bots = _manawire((["account", "--url", url], None),
                               (["watch", url, "someroom"], None),
                               (["bots", "--url", url, "--games", "1"], None))
    for done in clients:
        _said(done, f"can't connect to {url} over TLS",
              f"127.0.0.1:{plain} doesn't speak TLS", f"ws://127.0.0.1:{plain}")
    _said(bots, "doesn't speak TLS")
