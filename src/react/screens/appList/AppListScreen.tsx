// Placeholder until this route's screen lands (another helper's issue): replace this file.
export { default } from '../placeholder/PlaceholderScreen';
