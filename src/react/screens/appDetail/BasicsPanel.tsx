// The app's basics, edited in place.
import type { App } from '../../../core/api/apps';
import { AppForm } from '../appList/AppForm';

export default function BasicsPanel({ app, onSaved }: { app: App; onSaved: () => void }) {
  return <AppForm key={app.version} app={app} onSaved={onSaved} />;
}
