# A server on 127.0.0.1:PORT (its one argument) that appends the body of
# each POST to got.txt in its working directory and answers
# "A-SERVER got it": project A's server of the forwarding tests
# (TestNetworkForwardPerProject, confine's TestNetworkForwardScoped).
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open("got.txt", "ab") as f:
            f.write(body + b"\n")
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"A-SERVER got it\n")
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
