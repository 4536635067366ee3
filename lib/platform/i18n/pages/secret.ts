import { pageArea } from "./area";

/** A secret shown once (an API key, an app's client secret): the box, its copy button and the warning. */
export const secretTexts = pageArea({
  en: {
    copy: "Copy",
    copied: "Copied",
    copyFailed: "Copying is not allowed here: the text is selected, press Ctrl+C (⌘C on a Mac).",
    warning:
      "Copy it now and keep it somewhere safe: it is shown only this once. Only a hash of it is stored, so nobody can show it again.",
  },
  ro: {
    copy: "Copiază",
    copied: "Copiat",
    copyFailed: "Copierea nu este permisă aici: textul este selectat, apasă Ctrl+C (⌘C pe Mac).",
    warning:
      "Copiază-l acum și păstrează-l în siguranță: este afișat doar acum. Se păstrează doar o amprentă a lui, așa că nimeni nu îl mai poate afișa.",
  },
});
