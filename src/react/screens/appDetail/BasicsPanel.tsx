// The app's basics, edited in place, and the app as an OpenID Connect client (its secret).
import type { App } from '../../../core/api/apps';
import { AppForm } from '../../widgets/admin/AppForm';
import { ClientPanel } from './ClientPanel';

export default function BasicsPanel({ app, onSaved }: { app: App; onSaved: () => void }) {
  return (
    <>
      <AppForm key={app.version} app={app} onSaved={onSaved} />
      <ClientPanel app={app} />
    </>
  );
}
