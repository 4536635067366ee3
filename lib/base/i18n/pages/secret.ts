import { pageArea } from "./area";

/**
 * A secret shown once: the box, its copy button and the warning, which says truly how it is kept:
 * API keys and client secrets as a hash (checked, never read back), a webhook's signing secret
 * encrypted (each delivery is signed with it, so the server must be able to read it).
 */
export const secretTexts = pageArea({
  en: {
    copy: "Copy",
    copied: "Copied",
    copyFailed: "Copying is not allowed here: the text is selected, press Ctrl+C (⌘C on a Mac).",
    warning:
      "Copy it now and keep it somewhere safe: it is shown only this once. Only a hash of it is stored, so nobody can show it again.",
    warningEncrypted:
      "Copy it now and keep it somewhere safe: it is shown only this once. It is stored encrypted, because every delivery is signed with it, and no page shows it again; if it is lost, rotate it.",
  },
  ro: {
    copy: "Copiază",
    copied: "Copiat",
    copyFailed: "Copierea nu este permisă aici: textul este selectat, apasă Ctrl+C (⌘C pe Mac).",
    warning:
      "Copiază-l acum și păstrează-l în siguranță: este afișat doar acum. Se păstrează doar o amprentă a lui, așa că nimeni nu îl mai poate afișa.",
    warningEncrypted:
      "Copiază-l acum și păstrează-l în siguranță: este afișat doar acum. Se păstrează criptat, pentru că fiecare livrare este semnată cu el, și nicio pagină nu îl mai afișează; dacă îl pierzi, generează altul.",
  },
});
