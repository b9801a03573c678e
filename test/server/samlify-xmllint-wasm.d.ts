// The schema validator samlify is given in the tests (the package ships no types).
declare module '@authenio/samlify-xmllint-wasm' {
  export function validate(xml: string): Promise<string>;
}
