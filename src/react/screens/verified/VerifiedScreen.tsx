// /verified/{code} is the sign-in page (§2: plain, named login); the code's own flow comes with
// the settings issue.
export { default } from '../login/LoginScreen';
