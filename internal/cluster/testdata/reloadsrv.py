"""A stand-in for a Swift server's seamless reload (swift/common/wsgi.py's
run_wsgi, as it behaves, not its code), for reload_script_test.go.

Usage: reloadsrv.py CONF PORT. It reads CONF (exits at once when it starts
with "fail"), binds 127.0.0.1:PORT with SO_REUSEPORT, forks a worker that
answers every connection with CONF's content, and waits. On SIGUSR1 it
forks a temporary child that keeps the old socket, and re-executes itself
(same pid) with a pipe's end in RELOAD_NOTIFY_FD; the new image binds
anew, forks its worker and writes to the pipe, upon which the temporary
child shuts the old socket down and exits. The old worker then stays until
something ends it, as Swift's does while it holds a kept-alive connection,
and the new image never reaps it.
"""
import os
import signal
import socket
import sys
import time

conf, port = sys.argv[1], int(sys.argv[2])
time.sleep(0.3)  # a server's imports
with open(conf, "rb") as f:
    body = f.read()
if body.startswith(b"fail"):
    sys.exit("cannot start with " + conf)
sock = socket.socket()
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
sock.bind(("127.0.0.1", port))
sock.listen(16)
if os.fork() == 0:
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    while True:
        try:
            c, _ = sock.accept()
        except OSError:  # the socket shut down: linger, as over a kept-alive connection
            while True:
                signal.pause()
        c.recv(4096)
        c.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        c.close()
fd = os.environ.pop("RELOAD_NOTIFY_FD", None)
if fd:
    os.write(int(fd), b"ready")
    os.close(int(fd))
reload = []
signal.signal(signal.SIGUSR1, lambda *_: reload.append(1))
while not reload:
    signal.pause()
r, w = os.pipe()
if os.fork() == 0:
    os.close(w)
    os.read(r, 16)
    sock.shutdown(socket.SHUT_RDWR)
    os._exit(0)
os.close(r)
sock.set_inheritable(False)
os.set_inheritable(w, True)
os.environ["RELOAD_NOTIFY_FD"] = str(w)
os.execv(sys.executable, [sys.executable] + sys.argv)
