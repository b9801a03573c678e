// Third-party sign-in calls and the identity providers behind them: declaration and access of
// each; the providers and tickets are read and changed by server/services/idps.ts. A provider ticket
// is read and redeemed only by the browser that started the sign-in (findTicket), and never replaces
// a live session unless the person confirmed the switch. The provider is a first factor: a person
// with an authenticator app (or an administrator under adminStrongFactor) then takes that second
// step (server/auth/login-step.ts).
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Ctx } from '../context';
import { route, type ApiRequest, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/idp';
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
const CONFIRM_TYPED_CONTACTS = 'Signed in. A code was sent to the email or phone number you entered: it becomes your address once you confirm that code';

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
  route(app, gate, calls.getProviderAccessInfo, {
    tags,
    access: 'public',
    summary: 'What the provider told us about the user, and whether they must complete their data',
    handler: async ({ params, query, raw }) =>
      idps.ticketInfo(ctx, await findTicket(ctx, raw, params.idpCode, query.access_ticket, params.token), query.access_ticket),
  });

  route(app, gate, calls.postProviderComplement, {
    tags,
    access: 'public',
    summary: 'Complete the data of a first-time third-party user (if needed) and sign in',
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

  route(app, gate, calls.postProviderLink, {
    tags,
    access: 'public',
    summary:
      "Link the provider's account to the existing account with its email (that account's password, and its authenticator code if it has one), then sign in",
    rateLimit: ctx.config.rateLimits.login,
    // Linking takes the account's authenticator code when it has one (linkTicket).
    handler: (req, reply) => signInWithTicket(ctx, req, reply, (ticket) => linkTicket(ctx, ticket, req.body), 'totp'),
  });

  route(app, gate, calls.getIdps, {
    tags,
    access: 'public',
    summary: 'Enabled identity providers (for the sign-in page)',
    handler: () => idps.enabledIdps(ctx),
  });

  route(app, gate, calls.getIdpsAll, {
    tags,
    access: Permission.Settings,
    summary: 'Every identity provider, disabled ones too, with its settings but never its client secret',
    handler: () => idps.allIdps(ctx),
  });

  route(app, gate, calls.postIdps, {
    idempotent: true,
    tags,
    access: Permission.Settings,
    summary: 'Add an identity provider (its client secret is never answered back)',
    handler: ({ actor, body, raw }) => idps.createIdp(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.putIdpsByIdpCode, {
    tags,
    access: Permission.Settings,
    summary: 'Update an identity provider (blank config values keep the stored ones)',
    handler: ({ actor, params, body, raw }) => idps.updateIdp(ctx, actor, params.idpCode, body, raw.ip),
  });

  route(app, gate, calls.deleteIdpsByIdpCode, {
    tags,
    access: Permission.Settings,
    summary: 'Remove an identity provider',
    handler: ({ actor, params, raw }) => idps.deleteIdp(ctx, actor, params.idpCode, raw.ip),
  });
};
