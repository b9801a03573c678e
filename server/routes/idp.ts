// Third-party sign-in calls and the identity providers behind them: declaration and access of
// each; the providers and tickets are read and changed by server/services/idps.ts. A provider ticket
// is read and redeemed only by the browser that started the sign-in (findTicket), and never replaces
// a live session unless the person confirmed the switch. The provider is a first factor: a person
// with an authenticator app (or an administrator under adminStrongFactor) then takes that second
// step (server/auth/login-step.ts).
import * as v from 'valibot';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type ApiRequest, type RouteOptions } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { loginAnswer } from '../../src/core/schemas/auth';
import { accessInfo, accessInfoParams, accessTicketQuery, idpCodeParams, idpCreateBody, idpDetail, idpSummary, linkBody } from '../../src/core/schemas/idp';
import { complementBody } from '../../src/core/schemas/idp-complement';
import { complementAnswer, idpUpdateBody } from '../../src/core/schemas/idp-login';
import { findTicket, linkTicket, redeemTicket } from '../auth/third-party';
import type { ContactField } from '../auth/contacts';
import type { SecondStep } from '../auth/login';
import { signInAfterProvider } from '../auth/login-step';
import { ApiError } from '../http/errors';
import type { Actor, UserRow } from '../auth/actor';
import type { IdpTicketTable } from '../db/tables';
import { releaseBrowser } from '../idp/browser-binding';
import { Permission } from '../../src/core/permission-codes';
import * as idps from '../services/idps';

const tags = ['Third-party sign-in'];
/** The complement's answer when a code was sent to a typed email or phone (server/auth/third-party.ts). */
export const CONFIRM_TYPED_CONTACTS = 'Signed in. A code was sent to the email or phone number you entered: it becomes your address once you confirm that code';

/** A third-party sign-in opened over someone's live session (the person's own, or a victim's who
 *  followed a link) goes on only once the person confirmed the switch (`switchAccount`). */
function refuseSilentSwitch(actor: Actor | null, switchAccount: boolean | undefined): void {
  if (actor && switchAccount !== true) throw new ApiError(409, 'You are already signed in: confirm that this sign-in replaces the current one');
}

type TicketRequest = ApiRequest<{ switchAccount?: boolean | undefined }, { access_ticket: string }, { idpCode: string }>;

/** Signs in the person `redeem` makes of this browser's provider ticket (`proven`: a second step
 *  `redeem` checked already). */
async function signInWithTicket(
  ctx: Ctx,
  { actor, params, query, body, raw }: TicketRequest,
  reply: FastifyReply,
  redeem: (ticket: IdpTicketTable) => Promise<UserRow>,
  proven?: SecondStep['kind'],
) {
  const ticket = await findTicket(ctx, raw, params.idpCode, query.access_ticket);
  refuseSilentSwitch(actor, body.switchAccount);
  const user = await redeem(ticket);
  releaseBrowser(raw, reply, params.idpCode);
  return signInAfterProvider(ctx, raw, reply, user, params.idpCode, proven);
}

export const idpRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/interaction/idp/:idpCode/authorize/user/access/info/:token',
    tags,
    access: 'public',
    summary: 'What the provider told us about the user, and whether they must complete their data',
    params: accessInfoParams,
    query: accessTicketQuery,
    response: accessInfo,
    handler: async ({ params, query, raw }) =>
      idps.ticketInfo(ctx, await findTicket(ctx, raw, params.idpCode, query.access_ticket, params.token), query.access_ticket),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/interaction/idp/:idpCode/authorize/after/user/complement',
    tags,
    access: 'public',
    summary: 'Complete the data of a first-time third-party user (if needed) and sign in',
    params: idpCodeParams,
    query: accessTicketQuery,
    body: complementBody,
    response: complementAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async (req, reply) => {
      let toProve: ContactField[] = [];
      const answer = await signInWithTicket(ctx, req, reply, async (ticket) => {
        const redeemed = await redeemTicket(ctx, ticket, req.body, req.raw.log);
        toProve = redeemed.toProve;
        return redeemed.user;
      });
      // An address typed beyond the provider's vouched ones is not the account's yet: say so, and
      // which (the page asks for the codes at once: src/react/screens/infoComplete).
      return toProve.length && answer.loginSuccess ? { ...answer, message: CONFIRM_TYPED_CONTACTS, codeSentTo: toProve } : answer;
    },
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/interaction/idp/:idpCode/authorize/after/user/link',
    tags,
    access: 'public',
    summary:
      "Link the provider's account to the existing account with its email (that account's password, and its authenticator code if it has one), then sign in",
    params: idpCodeParams,
    query: accessTicketQuery,
    body: linkBody,
    response: loginAnswer,
    rateLimit: ctx.config.rateLimits.login,
    // Linking takes the account's authenticator code when it has one (linkTicket).
    handler: (req, reply) => signInWithTicket(ctx, req, reply, (ticket) => linkTicket(ctx, ticket, req.body), 'totp'),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/idps',
    tags,
    access: 'public',
    summary: 'Enabled identity providers (for the sign-in page)',
    response: v.array(idpSummary),
    handler: () => idps.enabledIdps(ctx),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/idps/all',
    tags,
    access: Permission.Settings,
    summary: 'Every identity provider, disabled ones too, with its settings but never its client secret',
    response: v.array(idpDetail),
    handler: () => idps.allIdps(ctx),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/idps',
    idempotent: true,
    tags,
    access: Permission.Settings,
    summary: 'Add an identity provider (its client secret is never answered back)',
    body: idpCreateBody,
    response: idpSummary,
    handler: ({ actor, body, raw }) => idps.createIdp(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/idps/:idpCode',
    tags,
    access: Permission.Settings,
    summary: 'Update an identity provider (blank config values keep the stored ones)',
    params: idpCodeParams,
    body: idpUpdateBody,
    response: idpSummary,
    handler: ({ actor, params, body, raw }) => idps.updateIdp(ctx, actor, params.idpCode, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/idps/:idpCode',
    tags,
    access: Permission.Settings,
    summary: 'Remove an identity provider',
    params: idpCodeParams,
    response: okAnswer,
    handler: ({ actor, params, raw }) => idps.deleteIdp(ctx, actor, params.idpCode, raw.ip),
  });
};
