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


def key_and_certificate(directory, name: str, common_name: str) -> tuple[str, str]:
    """A fresh RSA key and a self-signed certificate for it, as PEM files in `directory`."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import NameOID

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    key_path = directory / f"{name}.key"
    cert_path = directory / f"{name}.crt"
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.TraditionalOpenSSL,
            serialization.NoEncryption(),
        )
    )
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return str(key_path), str(cert_path)


class SamlIdp(_Server):
    """A SAML 2.0 identity provider: pysaml2's own server side. It publishes its metadata at
    /metadata, takes our authentication request at /sso (HTTP-Redirect) and answers with a
    signed response the browser posts to our assertion consumer service. Signs with a key made
    for it (`key_and_certificate`); signs through Debian's xmlsec1."""

    def __init__(self, directory, *, name="idp", entity_id=None, key_from=None, answers_for=None):
        self.directory = directory
        self.name = name
        self.entity_id_override = entity_id
        self.key_from = key_from  # another IdP whose key and certificate this one uses
        # Another IdP whose requests this one answers (an impostor, another campus's).
        self.answers_for = answers_for
        self.person: dict = {}
        self.bend: dict = {}  # sign=False, key_file=…, audience=…, lifetime_minutes=…
        self.last_response: dict = {}

    def start(self):
        super().start()
        from saml2 import BINDING_HTTP_REDIRECT
        from saml2.config import IdPConfig
        from saml2.server import Server

        if self.key_from is not None:
            self.key_file, self.cert_file = self.key_from.key_file, self.key_from.cert_file
        else:
            self.key_file, self.cert_file = key_and_certificate(
                self.directory, self.name, "Test campus identity provider"
            )
        self.entity_id = self.entity_id_override or f"{self.url}/metadata"
        config = IdPConfig()
        config.load(
            {
                "entityid": self.entity_id,
                "service": {
                    "idp": {
                        "name": "Test campus",
                        "endpoints": {
                            "single_sign_on_service": [
                                (f"{idp.url}/sso", BINDING_HTTP_REDIRECT)
                                for idp in (self, self.answers_for)
                                if idp is not None
                            ]
                        },
                        "policy": {"default": {"lifetime": {"minutes": 5}}},
                        "name_id_format": ["urn:oasis:names:tc:SAML:2.0:nameid-format:transient"],
                    }
                },
                "key_file": self.key_file,
                "cert_file": self.cert_file,
                "xmlsec_binary": "/usr/bin/xmlsec1",
                "metadata": {},
            }
        )
        self.config = config
        self.saml = Server(config=config)
        return self

    def trust(self, sp_metadata: str):
        """Our service provider's metadata, as the campus registers it."""
        self.saml.metadata.load("inline", sp_metadata)

    def metadata_xml(self) -> str:
        from saml2.metadata import create_metadata_string

        return create_metadata_string(None, self.config, valid=1, sign=False).decode()

    def handle(self, method, path, query, form, headers):
        if path == "/metadata":
            return 200, {"Content-Type": "application/samlmetadata+xml"}, self.metadata_xml()
        if path == "/sso":
            action, fields = self.answer(query["SAMLRequest"], query.get("RelayState", ""))
            return 200, {"Content-Type": "text/html"}, auto_post_form(action, fields)
        return 404, {}, "not found"

    def answer(self, saml_request: str, relay_state: str = "") -> tuple[str, dict]:
        """Sign `person` in: the ACS address and the form fields the browser posts there."""
        import base64

        from saml2 import BINDING_HTTP_REDIRECT
        from saml2.saml import NAMEID_FORMAT_TRANSIENT, NameID
        from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256

        request = self.saml.parse_authn_request(saml_request, BINDING_HTTP_REDIRECT).message
        bend = self.bend
        if "lifetime_minutes" in bend:
            from saml2.assertion import Policy

            self.saml.config.setattr(
                "idp",
                "policy",
                Policy({"default": {"lifetime": {"minutes": bend["lifetime_minutes"]}}}),
            )
        signed = bend.get("sign", True)
        response = self.saml.create_authn_response(
            identity=dict(self.person),
            in_response_to=request.id,
            destination=request.assertion_consumer_service_url,
            sp_entity_id=bend.get("audience", request.issuer.text),
            name_id=NameID(format=NAMEID_FORMAT_TRANSIENT, text="transient-" + request.id[-8:]),
            authn={
                "class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"
            },
            sign_assertion=signed,
            sign_response=signed,
            sign_alg=SIG_RSA_SHA256,
            digest_alg=DIGEST_SHA256,
            best_effort=True,
        )
        if "lifetime_minutes" in bend:
            from saml2.assertion import Policy

            self.saml.config.setattr(
                "idp", "policy", Policy({"default": {"lifetime": {"minutes": 5}}})
            )
        fields = {"SAMLResponse": base64.b64encode(str(response).encode()).decode()}
        if relay_state:
            fields["RelayState"] = relay_state
        self.last_response = fields
        return request.assertion_consumer_service_url, fields
