// Under a name, username or phone refused by the default field rules for what only the
// international rules take (a space, an accented letter, an e-mail username, a + number): a
// platform administrator (who may open Login settings) is shown where to switch; others see the
// rule's text alone.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useStore } from '../../store';
import { $session } from '../../../core/session';
import { Permission } from '../../../core/permission-codes';
import { parseRuleMessage } from '../../../core/rule-message';
import { useT } from '../../i18n';

/** The default rules' keys, and what in a value refused by one of them the international rules take. */
const internationalOnly: Record<string, RegExp> = {
  'rule.realName': /[^\w\u4e00-\u9fa5-]/,
  'rule.tenantName': /[^\w\u4e00-\u9fa5-]/,
  'rule.appName': /[^\w\u4e00-\u9fa5-]/,
  'rule.roleName': /[^\w\u4e00-\u9fa5-]/,
  'rule.username': /[@.]/,
  'rule.phone': /^\+/,
};

/** Where the international rules are, for a platform administrator (who may open Login
 *  settings); nothing for others. */
export function useInternationalRulesLink(): ReactNode {
  const t = useT();
  const permissions = useStore($session).user?.permissions;
  if (!permissions?.includes(Permission.Settings)) return undefined;
  return (
    <>
      {t('admin:fieldRules.hint')} <Link href="/operate/setting">{t('admin:fieldRules.where')}</Link>
    </>
  );
}

/** A field's hint for `(error, value)`: where the international rules are, or nothing. */
export function useInternationalRulesHint(): (error: string | undefined, value: string | undefined) => ReactNode {
  const link = useInternationalRulesLink();
  return (error, value) => {
    const wanted = error && internationalOnly[parseRuleMessage(error).key];
    if (!wanted || !value || !wanted.test(value.trim())) return undefined;
    return link;
  };
}
