// The demos that run beside the console under `npm start` (IAM_DEMOS=0: none). Payroll
// (demo/payroll) is an app on its own port (PAYROLL_PORT, default 8081) that signs in through the
// console's single sign-on: it is registered in the console's database at each start, with a fresh
// client secret handed to it here. It needs the development dependencies (oauth4webapi, jose, tsx):
// without them it is skipped with a note.
export async function startDemos() {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
    await import('oauth4webapi');
    await import('jose');
  } catch {
    console.warn('Payroll demo skipped: the development dependencies (tsx, oauth4webapi, jose) are not installed.');
    return;
  }
  register();
  const consoleUrl = `http://${process.env.HOST ?? 'localhost'}:${process.env.PORT ?? 8080}`;
  const discovery = await fetch(`${consoleUrl}/api/oidc/.well-known/openid-configuration`);
  const { issuer } = await discovery.json();
  const port = Number(process.env.PAYROLL_PORT ?? 8081);
  const origin = `http://${new URL(consoleUrl).hostname}:${port}`;
  const { registerPayrollInConfiguredDatabase } = await import('../server/seed/payroll.ts');
  const client = await registerPayrollInConfiguredDatabase(origin);
  const { startPayroll } = await import('../demo/payroll/server.mjs');
  await startPayroll({ issuer, client, port, host: process.env.HOST ?? 'localhost', origin });
  console.log(`Payroll demo (signs in through the console): ${origin}/`);
}
