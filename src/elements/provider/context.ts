// The context <iam-provider> passes down to the iam-* elements inside it. The key is a registered
// symbol, so that two copies of the bundle on one page (elements and login entries, or two
// versions) still find each other.
import { createContext } from '@lit/context';

/** The attributes a provider passes down (each optional: an absent one is not passed). */
export interface IamProvided {
  'api-base'?: string;
  locale?: string;
  theme?: string;
}

/** The provided attribute names, in one place. */
export const providedAttributes = ['api-base', 'locale', 'theme'] as const satisfies readonly (keyof IamProvided)[];

/**
 * The context's type as @lit/context types one (its `Context<symbol, IamProvided>`), spelled out so
 * that the package's typings name no @lit/context: a host needs it only to consume the context.
 */
export type IamContext = symbol & { __context__: IamProvided };

/** What a host's own Lit element consumes to read what the nearest <iam-provider> passes down. */
export const iamContext: IamContext = createContext<IamProvided, symbol>(Symbol.for('iam-console.provider'));
