import { appsTexts } from "./pages/apps";
import { webhooksTexts } from "./pages/webhooks";
import { apiLogTexts } from "./pages/api-log";
import { secretTexts } from "./pages/secret";
import { consentTexts } from "./pages/consent";
import { accountTexts } from "./pages/account";
import { apiKeysTexts } from "./pages/api-keys";
import { activityTexts } from "./pages/activity";
import { membersTexts } from "./pages/members";
import { catalogTexts } from "./pages/catalog";
import { shellTexts } from "./pages/shell";
import { myListingsTexts } from "./pages/my-listings";
import { listingFormTexts } from "./pages/listing-form";
import { accessTexts } from "./pages/access";
import { moderationTexts } from "./pages/moderation";
import type { PageMessages } from "./page-messages";

/** Romanian texts of the portal's pages: the keys and placeholders of page-en.ts. */
export const pageRo: PageMessages = {
  site: {
    name: "Platforma de anunțuri",
    description: "Publicați anunțuri imobiliare prin API și în portal.",
    skipToContent: "Salt la conținut",
    navigation: "Navigare principală",
    home: "Acasă",
    listings: "Anunțuri",
    apiReference: "Referința API",
    language: "Limba",
    switchTo: "Română",
  },
  home: {
    intro: "Publicați și administrați anunțuri imobiliare prin API-ul de la {api} sau în acest portal.",
    reference: "Referința interactivă a API-ului",
    referenceSource: "(din {document})",
    vocabulary: "Vocabular",
    vocabularyNote: "({endpoint}, fără cheie)",
  },
  apiReference: {
    title: "Referința API",
    intro:
      "Generată din {document}. Lipiți o cheie de sandbox pentru a trimite cereri reale din această pagină; cheia rămâne în această filă a browserului.",
    loading: "Se încarcă documentul API…",
    loadFailed: "Documentul API nu a putut fi încărcat: {error}",
    apiKey: "Cheie API",
    responses: "Răspunsuri: {statuses}",
    queryString: "Parametri de interogare",
    body: "Corp ({contentType})",
    send: "Trimite {method} {path}",
    response: "Răspuns",
  },
  listing: {
    code: "Cod {code}",
    facts: "Detalii",
    photos: "Fotografii",
    photoAlt: "Fotografia {n} din {total}",
    features: "Dotări",
    yes: "da",
    no: "nu",
    report: {
      title: "Raportează acest anunț",
      reason: "Ce nu este în regulă?",
      reasonHint:
        "De exemplu: apartamentul e deja închiriat, prețul sau fotografiile induc în eroare, adresa e greșită. Cel mult 1 000 de caractere.",
      email: "Adresa ta de e-mail (opțional)",
      emailHint: "Doar dacă vrei ca moderatorii să te poată întreba despre el.",
      submit: "Trimite raportul",
      pending: "Se trimite…",
      sent: "Mulțumim. Moderatorii vor verifica acest anunț.",
    },
  },
  problem: {
    title: "{code} – problemă",
    fallbackTitle: "Problemă",
    intro:
      "Adresa type a oricărei probleme a API-ului cu acest cod duce aici: titlul și detaliul ei, cu fiecare motiv pe care îl poate avea, în ambele limbi.",
    reason: "motiv: {reason}",
  },
  notFound: {
    title: "Pagina nu a fost găsită",
    text: "La această adresă nu există nicio pagină sau ea nu mai este publică.",
    home: "Înapoi la pagina principală",
  },
  crossOrigin: {
    title: "Cerere refuzată",
    text: "Formularul a fost trimis de pe alt site, așa că nu s-a făcut nimic. Deschide pagina pe acest site și trimite formularul de acolo.",
    home: "Înapoi la pagina principală",
  },
  staleForm: "Pagina nu mai este actuală; reîncarc-o și încearcă din nou.",
  access: accessTexts.ro,
  shell: shellTexts.ro,
  account: accountTexts.ro,
  apiKeys: apiKeysTexts.ro,
  activity: activityTexts.ro,
  members: membersTexts.ro,
  catalog: catalogTexts.ro,
  apiLog: apiLogTexts.ro,
  consent: consentTexts.ro,
  secret: secretTexts.ro,
  apps: appsTexts.ro,
  webhooks: webhooksTexts.ro,
  myListings: myListingsTexts.ro,
  moderation: moderationTexts.ro,
  listingForm: listingFormTexts.ro,
};
