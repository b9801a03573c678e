// EMAIL over SMTP with nodemailer: STARTTLS (default), implicit TLS, or plain for a local relay.
import { lazy } from '../../lazy';
import { DeliveryErrorCode } from '../../../src/core/schemas/delivery-error';
import { DeliveryError, type Sender } from './types';

const TIMEOUT_MS = 10_000;

const nodemailer = lazy(() => import('nodemailer').then((module) => module.default));

export const sendEmail: Sender = async (settings, message) => {
  if (!message.address?.includes('@')) throw new DeliveryError(DeliveryErrorCode.NoEmail);
  const security = settings.security || 'starttls';
  const transport = (await nodemailer()).createTransport({
    host: settings.host,
    port: Number(settings.port),
    secure: security === 'tls',
    requireTLS: security === 'starttls',
    ignoreTLS: security === 'none',
    auth: settings.username ? { user: settings.username, pass: settings.password ?? '' } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: 2 * TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: settings.from || settings.username, to: message.address, subject: message.title, text: message.content });
  } catch (error) {
    // nodemailer's texts name the SMTP step that failed (connection, auth, recipient); no secret.
    throw new DeliveryError(DeliveryErrorCode.MailRefused, error instanceof Error ? error.message : null);
  } finally {
    transport.close();
  }
};
