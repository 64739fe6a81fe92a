# A DeCA webhook receiver in Python, standard library only: verifies each
# delivery's Standard Webhooks signature, then answers 204 (400 if it fails).
# Run: DECA_WEBHOOK_SECRET=whsec_... PORT=4242 python3 receiver.py
import base64
import hashlib
import hmac
import json
import os
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ.get("DECA_WEBHOOK_SECRET", "")
KEY = base64.b64decode(SECRET.removeprefix("whsec_"))
TOLERANCE_SECONDS = 5 * 60


def verified(headers, body: bytes) -> bool:
    """True when one `v1,` signature of the header signs f"{id}.{timestamp}.{body}"."""
    webhook_id = headers.get("webhook-id", "")
    timestamp = headers.get("webhook-timestamp", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    signed = f"{webhook_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(KEY, signed, hashlib.sha256).digest())
    for entry in headers.get("webhook-signature", "").split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode(), expected):
            return True
    return False


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # the raw body
        if not verified(self.headers, body):
            self.send_response(400)
            self.end_headers()
            return
        event = json.loads(body)
        # Deliveries come at least once: skip an event id already handled.
        print(event["id"], event["type"], flush=True)
        self.send_response(204)
        self.end_headers()

    def log_message(self, format, *args):
        pass


port = int(os.environ.get("PORT", "4242"))
server = HTTPServer(("127.0.0.1", port), Receiver)
print(f"Listening on http://127.0.0.1:{port}/webhooks", flush=True)
server.serve_forever()
