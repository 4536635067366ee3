import { refusalRows, validationRows } from "@/lib/adapters/docs/error-catalogue";
import type { Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";

/** The errors guide's table of refusals, made from the error registry and the catalogue (so it cannot drift from the API). */
export function RefusalTable({ locale }: { locale: Locale }) {
  const texts = pageMessages(locale).docs.errorTables;
  return (
    <div className="table-wrap" tabIndex={0}>
      <table className="data">
        <thead>
          <tr>
            {[texts.status, texts.code, texts.title, texts.fix].map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {refusalRows(locale).map((row) => (
            <tr key={row.code} id={`code-${row.code}`}>
              <td>{row.status}</td>
              <td>
                <code>{row.code}</code>
              </td>
              <td>{row.title}</td>
              <td>{row.fix}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The validation codes of `errors[]`, from the catalogue, with the spec's pointer for the cross-field ones. */
export function ValidationTable({ locale }: { locale: Locale }) {
  const texts = pageMessages(locale).docs.errorTables;
  return (
    <div className="table-wrap" tabIndex={0}>
      <table className="data">
        <thead>
          <tr>
            {[texts.code, texts.pointer, texts.detail].map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {validationRows(locale).map((row) => (
            <tr key={row.code} id={`validation-${row.code}`}>
              <td>
                <code>{row.code}</code>
              </td>
              <td>{row.pointer ? <code>{row.pointer}</code> : texts.fieldPointer}</td>
              <td>{row.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
