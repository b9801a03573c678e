// SAML 2.0 for the apps (server/saml/): the identity provider's protocol endpoints (metadata, SSO
// and SLO in the HTTP-Redirect and HTTP-POST bindings, a browser sign-out's steps through the apps'
// Single Logout services), the SAML sign-in page's calls, the portal's
// IdP-initiated sign-in, an app's service-provider settings and the signing keys' rotation.
// The protocol endpoints receive cross-site posts from the apps: they are bindings (bindingRoute: no
// CSRF check, no session from the gate), in a scope of their own that reads a posted form as sent.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { bindingRoute, linkRoute, route, type Gate, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/saml';
import { ApiError } from '../http/errors';
import { Permission } from '../../src/core/permission-codes';
import { requirePlatform } from '../auth/scope';
import * as providers from '../services/saml-providers';
import { answerRequest, issueResponse, launch, receiveAuthnRequest, requestDetails, type Incoming } from '../saml/sign-in';
import { receiveLogout } from '../saml/logout';
import { nextStep } from '../saml/front-channel';
import { browserOwnsChain, releaseChain } from '../saml/chain-browser';
import { sendPostPage } from '../saml/post-page';
import { idpMetadata } from '../saml/idp-metadata';
import { keyStates, publishedKeys, rotateKeys } from '../saml/keys';
import { SamlError } from '../saml/xml';
import { protocolParams } from '../saml/bindings-query';
import { sessionCookieOf } from '../auth/gate';
import { actorOf } from '../auth/actor';

const tags = ['SAML'];
/** The largest form an app may post (a signed AuthnRequest or LogoutRequest is a few KiB). */
const FORM_LIMIT_BYTES = 128 * 1024;
/** The longest RelayState kept with a pending sign-in. The bindings allow an app 80 bytes; apps that
 *  put a return URL there send more, so this is lenient, but an anonymous request cannot park
 *  the whole form in the database for the sign-in's 10 minutes. */
const RELAY_STATE_LIMIT_BYTES = 2048;
/** The title of a page that posts a logout message to an app. */
const SIGNING_OUT = 'Signing you out of the app';

/** The message of a request in either binding, read from the same parameters the HTTP-Redirect
 *  signature is checked over (server/saml/bindings-query.ts). */
function incomingOf(request: FastifyRequest): Incoming {
  const post = request.method === 'POST';
  const params = protocolParams(post ? ((request.body as string | undefined) ?? '') : ((request.raw.url ?? '').split('?')[1] ?? ''));
  if (params.SAMLRequest && params.SAMLResponse) throw new ApiError(400, 'A SAML parameter is given more than once');
  const message = params.SAMLRequest ?? params.SAMLResponse;
  if (!message?.value) throw new ApiError(400, 'The SAML message is missing');
  if (Buffer.byteLength(params.RelayState?.value ?? '') > RELAY_STATE_LIMIT_BYTES) throw new ApiError(400, 'The RelayState is longer than 2048 bytes');
  return {
    binding: post ? 'post' : 'redirect',
    message: message.value,
    relayState: params.RelayState?.value ?? null,
    ...(post ? {} : { query: params }),
    kind: params.SAMLResponse ? 'response' : 'request',
  };
}

/** A message that cannot be answered to the app is refused in the envelope (never redirected). */
async function protocol<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SamlError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** Who is signed in to the console in this browser (its session cookie), if anyone: a passive
 *  AuthnRequest is answered from it. */
async function browserPerson(ctx: Ctx, request: FastifyRequest) {
  const secret = sessionCookieOf(request);
  const session = secret ? await ctx.sessions.resolve(secret, 'cookie') : undefined;
  return session && actorOf(session, 'cookie');
}

function protocolEndpoints(ctx: Ctx, gate: Gate): FastifyPluginAsync {
  return async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    const sso = async ({ raw: request }: { raw: FastifyRequest }, reply: FastifyReply) => {
      const outcome = await protocol(async () => receiveAuthnRequest(ctx, incomingOf(request), await browserPerson(ctx, request), request.ip));
      if (outcome.kind === 'page') return reply.redirect(outcome.location, 303);
      return sendPostPage(request, reply, outcome.post.acsUrl, { SAMLResponse: outcome.post.samlResponse, RelayState: outcome.post.relayState });
    };
    const slo = async ({ raw: request }: { raw: FastifyRequest }, reply: FastifyReply) => {
      const outcome = await protocol(async () => receiveLogout(ctx, incomingOf(request), request.ip, (await browserPerson(ctx, request))?.sessionId));
      if (outcome.kind === 'redirect') return reply.redirect(outcome.location, 303);
      return sendPostPage(request, reply, outcome.url, { SAMLResponse: outcome.message, RelayState: outcome.relayState }, SIGNING_OUT);
    };
    // A browser sign-out's next app (front-channel Single Logout, server/saml/front-channel.ts), for
    // the browser that signed out only (server/saml/chain-browser.ts).
    const logoutStep = async ({ raw: request, params: { chain } }: { raw: FastifyRequest; params: { chain: string } }, reply: FastifyReply) => {
      const step = await nextStep(ctx, chain, browserOwnsChain(request, chain));
      if (step.kind === 'post') return sendPostPage(request, reply, step.url, step.fields, SIGNING_OUT);
      if (step.kind === 'done') releaseChain(request, reply, chain);
      return reply.header('cache-control', 'no-store').redirect(step.location, 303);
    };
    const ssoSummary = "An app's AuthnRequest: redirects to the SAML sign-in page, or answers the page that posts the signed Response to the app";
    bindingRoute(scope, gate, calls.getSamlSso, { tags, summary: `${ssoSummary} (HTTP-Redirect binding)`, handler: sso });
    bindingRoute(scope, gate, calls.postSamlSso, { tags, summary: `${ssoSummary} (HTTP-POST binding)`, handler: sso });
    const sloSummary =
      "An app's LogoutRequest (the person's sessions end, the other apps are told) or LogoutResponse: answered by a redirect or a posting page";
    bindingRoute(scope, gate, calls.getSamlSlo, { tags, summary: `${sloSummary} (HTTP-Redirect binding)`, handler: slo });
    bindingRoute(scope, gate, calls.postSamlSlo, { tags, summary: `${sloSummary} (HTTP-POST binding)`, handler: slo });
    bindingRoute(scope, gate, calls.getSamlLogoutStep, {
      tags,
      summary: "A browser sign-out's next app (for the browser that signed out): the page that posts its LogoutRequest, or a redirect on",
      handler: logoutStep,
    });
  };
}

export const samlRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  void app.register(protocolEndpoints(ctx, gate));

  linkRoute(app, gate, calls.getSamlMetadata, {
    tags,
    access: 'public',
    summary: "This identity provider's SAML metadata (its entity ID is this URL): signing certificates, SSO and SLO services",
    handler: async (_request, reply) =>
      reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .header('cache-control', 'max-age=300')
        .send(await idpMetadata(ctx)),
  });

  route(app, gate, calls.getSamlRequestsById, {
    tags,
    access: Permission.SelfService,
    summary: 'Which app asks to sign the person in (the SAML sign-in page)',
    handler: ({ actor, params }) => requestDetails(ctx, actor, params.id),
  });

  route(app, gate, calls.postSamlRequestsById, {
    tags,
    access: Permission.SelfService,
    summary: 'Allow or deny the app; answers the page that posts the answer to the app',
    handler: ({ actor, params, body, raw }) => answerRequest(ctx, actor, params.id, body.allow, raw.ip),
  });

  linkRoute(app, gate, calls.getSamlRequestAnswer, {
    tags,
    access: Permission.SelfService,
    summary: "The page that posts the signed SAML Response to the app's assertion consumer service (once)",
    handler: async ({ actor, params, raw }, reply) => {
      const post = await issueResponse(ctx, actor, params.id, raw.ip);
      return sendPostPage(raw, reply, post.acsUrl, { SAMLResponse: post.samlResponse, RelayState: post.relayState });
    },
  });

  route(app, gate, calls.postSamlAppsLaunch, {
    tags,
    access: Permission.SelfService,
    summary: 'Open a SAML app from the portal (IdP-initiated sign-in); answers the sign-in page',
    handler: ({ actor, params }) => launch(ctx, actor, params.appId),
  });

  route(app, gate, calls.getAppsSamlProvider, {
    tags,
    access: Permission.Apps,
    summary: 'The app as a SAML service provider (null when it is not one) and this identity provider',
    handler: ({ actor, params }) => providers.providerOf(ctx, actor, params.appId),
  });

  route(app, gate, calls.putAppsSamlProvider, {
    tags,
    access: Permission.Apps,
    summary: 'Register or change the app as a SAML service provider: fields, or SP metadata pasted or fetched by URL',
    handler: ({ actor, params, body, raw }) => providers.saveProvider(ctx, actor, params.appId, body, raw.ip),
  });

  route(app, gate, calls.deleteAppsSamlProvider, {
    tags,
    access: Permission.Apps,
    summary: 'The app stops being a SAML service provider',
    handler: ({ actor, params, raw }) => providers.removeProvider(ctx, actor, params.appId, raw.ip),
  });

  route(app, gate, calls.getSamlKeys, {
    tags,
    access: Permission.Apps,
    summary: "The identity provider's signing keys and their states (platform administrator)",
    handler: async ({ actor }) => {
      requirePlatform(actor);
      await publishedKeys(ctx.db, ctx.now());
      return keyStates(ctx.db);
    },
  });

  route(app, gate, calls.postSamlKeysRotate, {
    tags,
    access: Permission.Apps,
    summary: 'One step of the signing key rotation: publish the next key, or make it the signing one (platform administrator)',
    handler: async ({ actor, raw }) => {
      requirePlatform(actor);
      return ctx.audit.change(async () => {
        const states = await rotateKeys(ctx.db, ctx.now());
        await ctx.audit.record({ action: 'settings.update', actor, ip: raw.ip, detail: { samlKeys: states.map(({ id, state }) => ({ id, state })) } });
        return states;
      });
    },
  });
};
