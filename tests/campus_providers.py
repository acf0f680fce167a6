"""Campus identity providers the sign-in tests start on this machine: an OpenID Connect
provider and a SAML identity provider (pysaml2's own server side), each in a thread on a free
port, each signing with a key made for the test. The test says who signs in next (`person`)
and may bend one thing about the answer (another audience, an expired token, …) to see it
refused."""

from __future__ import annotations

import html
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

from joserfc import jwt
from joserfc.jwk import RSAKey


class _Server:
    """A ThreadingHTTPServer on 127.0.0.1 answering through `self.handle(method, path, query,
    form, headers)`, which returns (status, headers, body)."""

    def start(self):
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, method):
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                form = {k: v[0] for k, v in parse_qs(body).items()}
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                status, headers, content = owner.handle(
                    method, parts.path, query, form, dict(self.headers)
                )
                data = content.encode() if isinstance(content, str) else content
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._answer("GET")

            def do_POST(self):
                self._answer("POST")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def _json(data, status=200):
    return status, {"Content-Type": "application/json"}, json.dumps(data)


class OidcProvider(_Server):
    """A small OpenID Connect provider: discovery, the authorization endpoint (signs in
    `person` at once, as a campus's page would after its password), the token endpoint (an
    RS256 ID token), userinfo and the keys."""

    def __init__(self, *, client_id="scrabble-league", client_secret="s3cret-for-tests"):
        self.client_id = client_id
        self.client_secret = client_secret
        self.key = RSAKey.generate_key(
            2048, parameters={"kid": secrets.token_hex(4), "use": "sig", "alg": "RS256"}
        )
        self.person: dict = {}
        self.codes: dict[str, dict] = {}
        self.tokens: dict[str, dict] = {}
        # What a test bends: claims over the ID token's (aud, exp, iss, …).
        self.id_token_overrides: dict = {}

    def handle(self, method, path, query, form, headers):
        if path == "/.well-known/openid-configuration":
            return _json(
                {
                    "issuer": self.url,
                    "authorization_endpoint": f"{self.url}/authorize",
                    "token_endpoint": f"{self.url}/token",
                    "userinfo_endpoint": f"{self.url}/userinfo",
                    "jwks_uri": f"{self.url}/jwks",
                    "response_types_supported": ["code"],
                    "subject_types_supported": ["public"],
                    "id_token_signing_alg_values_supported": ["RS256"],
                    "token_endpoint_auth_methods_supported": ["client_secret_post"],
                }
            )
        if path == "/jwks":
            return _json({"keys": [self.key.as_dict(private=False)]})
        if path == "/authorize":
            if query.get("client_id") != self.client_id:
                return 400, {}, "unknown client"
            code = secrets.token_urlsafe(16)
            self.codes[code] = {
                "claims": dict(self.person),
                "nonce": query.get("nonce"),
                "redirect_uri": query["redirect_uri"],
            }
            target = f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query.get('state', '')})}"
            return 302, {"Location": target}, ""
        if path == "/token" and method == "POST":
            grant = self.codes.pop(form.get("code", ""), None)
            if (
                grant is None
                or form.get("client_id") != self.client_id
                or form.get("client_secret") != self.client_secret
                or form.get("redirect_uri") != grant["redirect_uri"]
            ):
                return _json({"error": "invalid_grant"}, 400)
            now = int(time.time())
            claims = {
                "iss": self.url,
                "aud": self.client_id,
                "iat": now,
                "exp": now + 300,
                "jti": secrets.token_hex(8),
                **grant["claims"],
            }
            if grant["nonce"]:
                claims["nonce"] = grant["nonce"]
            claims.update(self.id_token_overrides)
            id_token = jwt.encode({"alg": "RS256", "kid": self.key.kid}, claims, self.key)
            access = secrets.token_urlsafe(16)
            self.tokens[access] = grant["claims"]
            return _json(
                {
                    "access_token": access,
                    "token_type": "Bearer",
                    "expires_in": 300,
                    "id_token": id_token,
                }
            )
        if path == "/userinfo":
            token = headers.get("Authorization", "").removeprefix("Bearer ")
            if token not in self.tokens:
                return _json({"error": "invalid_token"}, 401)
            return _json(self.tokens[token])
        return 404, {}, "not found"


def auto_post_form(action: str, fields: dict) -> str:
    """The page an identity provider answers with: a form the browser posts back at once (a
    button for a browser without scripts)."""
    inputs = "".join(
        f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
        for k, v in fields.items()
    )
    return (
        f'<html><body><form method="post" action="{html.escape(action)}">{inputs}'
        '<button type="submit" id="continue">Continue</button></form></body></html>'
    )
