// Third-party sign-in buttons (supportThirdLogin 'Y'): one per enabled identity provider
// (GET /idps, public), with the provider's icon when one is configured. A button starts the provider's flow on the server, which comes back to
// /infoComplete (first-time users complete their data) or signs the person in.
import { call, urlOf } from '../../../core/api/call';
import { fileUrl } from '../../../core/api/files';
import { getIdps, getProviderStart } from '../../../core/contract/idp';
import type { CallAnswer } from '../../../core/contract/declare';
import { useT } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from './LoginScreen.css';

function enabledProviders(): Promise<CallAnswer<typeof getIdps>> {
  return call(getIdps, {}, { silent: true, authRedirect: false });
}

/** Where a provider's sign-in starts (the server redirects to the provider). */
function providerStartUrl(code: string, redirect: string | undefined): string {
  return urlOf(getProviderStart, { params: { idpCode: code }, query: { redirect } });
}

export function ThirdPartyLogin({ redirect }: { redirect?: string }) {
  const t = useT();
  const providers = useResource(enabledProviders, []);
  const list = providers.data?.filter((provider) => provider.enabled) ?? [];
  if (!list.length) return null;
  return (
    <section className={styles.thirdParty} aria-labelledby="iam-third-party">
      <p id="iam-third-party" className={styles.divider}>
        {t('console:login.thirdParty')}
      </p>
      <div className={styles.providers}>
        {list.map((provider) => (
          <a key={provider.code} className={ui.button.secondary} href={providerStartUrl(provider.code, redirect)}>
            {/* The label names the button: the provider's icon is decoration (empty alt). */}
            {provider.icon ? <img className={ui.icon} src={fileUrl(provider.icon)} alt="" /> : <Icon name="external" />}
            {t('console:login.withProvider', { name: provider.name })}
          </a>
        ))}
      </div>
    </section>
  );
}
