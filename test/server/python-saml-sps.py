# Three SAML service providers for test/server/attack-d.test.ts: pysaml2 (Debian's python3-pysaml2,
# xmlsec1), configured as the pysaml2 docs' example SP is; Lasso (python3-lasso, the library
# behind Apache mod_auth_mellon), driven as mod_auth_mellon drives it with the metadata
# mellon_create_metadata.sh writes; and OneLogin's python3-saml (python3-onelogin-saml2) with its
# default settings, the IdP read from its metadata as its README does. One process per test file: a JSON
# command per line on stdin, a JSON answer per line on stdout; the test keeps the state between
# steps (outstanding request IDs).
import json
import sys
import lasso
from onelogin.saml2.auth import OneLogin_Saml2_Auth
from onelogin.saml2.idp_metadata_parser import OneLogin_Saml2_IdPMetadataParser
from onelogin.saml2.settings import OneLogin_Saml2_Settings
from urllib.parse import parse_qs, urlparse
from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.client import Saml2Client
from saml2.config import SPConfig
from saml2.metadata import create_metadata_string
from saml2.saml import NAMEID_FORMAT_TRANSIENT


def config(args):
    base = args["base"]
    sp = {
        "name": "pysaml2 example SP",
        "endpoints": {
            "assertion_consumer_service": [(base + "/acs/post", BINDING_HTTP_POST)],
            "single_logout_service": [(base + "/slo/redirect", BINDING_HTTP_REDIRECT), (base + "/slo/post", BINDING_HTTP_POST)],
        },
        "authn_requests_signed": True,
        "logout_requests_signed": True,
        "want_assertions_signed": True,
        "want_response_signed": False,
        "allow_unsolicited": args.get("allow_unsolicited", False),
    }
    sp.update(args.get("sp", {}))
    conf = {
        "entityid": base + "/sp.xml",
        "service": {"sp": sp},
        "key_file": args["key"],
        "cert_file": args["cert"],
        "xmlsec_binary": "/usr/bin/xmlsec1",
        "metadata": {"inline": [args["idp_metadata"]]} if args.get("idp_metadata") else {},
        "allow_unknown_attributes": True,
    }
    if args.get("encryption", True):
        conf["encryption_keypairs"] = [{"key_file": args["key"], "cert_file": args["cert"]}]
    conf.update(args.get("conf", {}))
    c = SPConfig()
    c.load(conf)
    return c


def out(value):
    print(json.dumps(value), flush=True)


def handle(args):
    cmd = args["cmd"]
    if cmd == "metadata":
        out({"metadata": create_metadata_string(None, config(args), valid=None, sign=False).decode()})
    elif cmd == "authn":
        client = Saml2Client(config(args))
        binding = BINDING_HTTP_POST if args.get("binding") == "post" else BINDING_HTTP_REDIRECT
        extra = {k: args[k] for k in ("sigalg", "digest_alg") if k in args}
        reqid, info = client.prepare_for_authenticate(relay_state=args.get("relay", "relay"), binding=binding, **extra)
        headers = dict(info.get("headers", []))
        out({"id": reqid, "url": headers.get("Location"), "data": info.get("data"), "method": info.get("method")})
    elif cmd == "response":
        client = Saml2Client(config(args))
        try:
            response = client.parse_authn_request_response(args["saml_response"], BINDING_HTTP_POST, outstanding=args.get("outstanding", {}))
        except Exception as error:  # what the SP would show: refused
            out({"error": type(error).__name__ + ": " + str(error)})
            return
        if response is None:
            out({"error": "None"})
            return
        assertion = response.assertion
        out({
            "name_id": response.name_id.text,
            "name_id_format": response.name_id.format,
            "session_index": assertion.authn_statement[0].session_index,
            "ava": response.get_identity(),
            "in_response_to": response.in_response_to,
            "audience": [a.audience[0].text for a in assertion.conditions.audience_restriction],
        })
    elif cmd == "mellon_metadata":
        out({"metadata": mellon_metadata(args)})
    elif cmd == "mellon_authn":
        login = lasso.Login(mellon_server(args))
        login.initAuthnRequest(None, lasso.HTTP_METHOD_REDIRECT)
        request = login.request
        # What mod_auth_mellon sets (auth_mellon_handler.c, am_init_authn_request_common).
        request.nameIdPolicy.allowCreate = True
        request.nameIdPolicy.format = args.get("nameid_format", lasso.SAML2_NAME_IDENTIFIER_FORMAT_TRANSIENT)
        request.protocolBinding = lasso.SAML2_METADATA_BINDING_POST
        request.assertionConsumerServiceUrl = args["base"] + "/postResponse"
        login.msgRelayState = args.get("relay", "https://app.example.test/secret")
        login.buildAuthnRequestMsg()
        out({"id": request.iD, "url": login.msgUrl, "format": request.nameIdPolicy.format})
    elif cmd == "mellon_response":
        login = lasso.Login(mellon_server(args))
        try:
            login.processAuthnResponseMsg(args["saml_response"])
            if args.get("request_id") and login.response.inResponseTo != args["request_id"]:
                raise ValueError("InResponseTo " + str(login.response.inResponseTo))
            login.acceptSso()
        except Exception as error:
            out({"error": type(error).__name__ + ": " + str(error)})
            return
        out({"name_id": login.nameIdentifier.content, "name_id_format": login.nameIdentifier.format, "session": login.session.dump()})
    elif cmd == "mellon_logout":
        # mod_auth_mellon's /logout (am_init_logout_request): a signed HTTP-Redirect LogoutRequest.
        logout = lasso.Logout(mellon_server(args))
        logout.setSessionFromDump(args["session"])
        logout.initRequest(None, lasso.HTTP_METHOD_REDIRECT)
        logout.msgRelayState = "https://app.example.test/after-logout"
        logout.buildRequestMsg()
        out({"url": logout.msgUrl, "session": args["session"]})
    elif cmd == "mellon_logout_response":
        # What mod_auth_mellon reads at its HTTP-Redirect SingleLogoutService: the query.
        logout = lasso.Logout(mellon_server(args))
        logout.setSessionFromDump(args["session"])
        try:
            logout.processResponseMsg(args["query"])
        except Exception as error:
            out({"error": type(error).__name__ + ": " + str(error)})
            return
        out({"status": logout.response.status.statusCode.value})
    elif cmd.startswith("onelogin_"):
        onelogin(cmd, args)
    else:
        out({"error": "unknown command " + cmd})


def onelogin_settings(args):
    # Only what python3-saml requires (its defaults for the rest: strict, nothing signed by the SP,
    # a signed Response or assertion wanted), the IdP merged in from its metadata.
    base = args["base"]
    settings = {
        "sp": {
            "entityId": base + "/metadata/",
            "assertionConsumerService": {"url": base + "/?acs", "binding": "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"},
            "singleLogoutService": {"url": base + "/?sls", "binding": "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"},
        },
    }
    return OneLogin_Saml2_IdPMetadataParser.merge_settings(settings, OneLogin_Saml2_IdPMetadataParser.parse(args["idp_metadata"]))


def onelogin_auth(args, url, get=None, post=None):
    # The request the SP's web framework would hand it: where it was received, and its parameters.
    where = urlparse(url)
    request = {"https": "off", "http_host": where.netloc, "script_name": where.path, "get_data": get or {}, "post_data": post or {}}
    return OneLogin_Saml2_Auth(request, onelogin_settings(args))


def onelogin(cmd, args):
    base = args["base"]
    if cmd == "onelogin_metadata":
        out({"metadata": OneLogin_Saml2_Settings(onelogin_settings(args), sp_validation_only=True).get_sp_metadata()})
    elif cmd == "onelogin_authn":
        auth = onelogin_auth(args, base + "/")
        url = auth.login(return_to=args.get("relay", base + "/attrs"))
        out({"id": auth.get_last_request_id(), "url": url})
    elif cmd == "onelogin_response":
        auth = onelogin_auth(args, base + "/", post={"SAMLResponse": args["saml_response"]})
        auth.process_response(request_id=args["request_id"])
        if auth.get_errors():
            out({"error": ", ".join(auth.get_errors()) + ": " + str(auth.get_last_error_reason())})
            return
        out({"name_id": auth.get_nameid(), "name_id_format": auth.get_nameid_format(), "session_index": auth.get_session_index(), "ava": auth.get_attributes()})
    elif cmd == "onelogin_logout":
        auth = onelogin_auth(args, base + "/")
        url = auth.logout(return_to=base + "/", name_id=args["name_id"], session_index=args["session_index"], name_id_format=args["name_id_format"])
        out({"id": auth.get_last_request_id(), "url": url})
    elif cmd == "onelogin_logout_response":
        # What its single logout service (?sls) reads: the query of the redirect.
        query = {key: values[0] for key, values in parse_qs(args["query"]).items()}
        auth = onelogin_auth(args, base + "/", get=dict(query, sls=""))
        auth.process_slo(keep_local_session=True, request_id=args["request_id"])
        if auth.get_errors():
            out({"error": ", ".join(auth.get_errors()) + ": " + str(auth.get_last_error_reason())})
            return
        out({"status": "Success"})


def mellon_metadata(args):
    base = args["base"]
    cert = "".join(line for line in open(args["cert"]).read().splitlines() if "CERTIFICATE" not in line)
    key = '<KeyDescriptor use="%s"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>' + cert + "</ds:X509Certificate></ds:X509Data></ds:KeyInfo></KeyDescriptor>"
    return (
        '<EntityDescriptor entityID="' + base + '/metadata" xmlns="urn:oasis:names:tc:SAML:2.0:metadata">'
        '<SPSSODescriptor AuthnRequestsSigned="true" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">'
        + key % "signing" + key % "encryption" +
        '<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="' + base + '/logout"/>'
        '<AssertionConsumerService index="0" isDefault="true" Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="' + base + '/postResponse"/>'
        '<AssertionConsumerService index="1" Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact" Location="' + base + '/artifactResponse"/>'
        '<AssertionConsumerService index="2" Binding="urn:oasis:names:tc:SAML:2.0:bindings:PAOS" Location="' + base + '/paosResponse"/>'
        "</SPSSODescriptor></EntityDescriptor>"
    )


def mellon_server(args):
    server = lasso.Server.newFromBuffers(mellon_metadata(args), open(args["key"]).read(), None, open(args["cert"]).read())
    if "signature_method" in args:
        server.signatureMethod = args["signature_method"]
    server.addProviderFromBuffer(lasso.PROVIDER_ROLE_IDP, args["idp_metadata"])
    return server


for line in sys.stdin:
    try:
        handle(json.loads(line))
    except Exception as error:  # the test reads it as this step's failure
        out({"crash": type(error).__name__ + ": " + str(error)})
