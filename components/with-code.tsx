/** A catalogue text with one `{placeholder}` shown as code (an address, a request). */
export function WithCode({ text, placeholder, code }: { text: string; placeholder: string; code: string }) {
  const [before, after] = text.split(`{${placeholder}}`);
  return (
    <>
      {before}
      <code>{code}</code>
      {after}
    </>
  );
}
