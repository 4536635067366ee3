import { pageArea } from "./area";

/** The consent page of the OAuth connect flow (`/oauth/authorize`). */
export const consentTexts = pageArea({
  en: {
    pageTitle: "Connect an app",
    title: "Connect {app}",
    intro: "{app} asks to work with the listings of your account {account} through the Listings API.",
    canDo: "If you allow it, {app} can:",
    permissions: {
      "listings:read": "read your listings and their events",
      "listings:write": "create, edit, pause, mark sold and delete your listings",
      "media:write": "upload and arrange the photos of your listings",
    },
    keyNote:
      "This gives {app} an API key of your account for 365 days. It is listed under Connected apps and API keys, and Disconnect stops it at once.",
    returnNote: "Either way you go back to {origin}.",
    allow: "Allow",
    deny: "Deny",
    pending: "Sending your answer…",
    refused: {
      too_many_keys:
        "Your account already has {limit} API keys in use. Revoke one under API keys, then start the connection again from {app}.",
      unconfirmed_account: "Confirm your e-mail address before connecting apps.",
    },
    expired: "This form is no longer valid. Start the connection again from the app.",
    errorTitle: "This connection request cannot be used",
    errorIntro: "The app sent a request we cannot answer safely, so you stay here:",
    errorAdvice: "Go back to the app and start again; if it keeps happening, tell the app's makers.",
  },
  ro: {
    pageTitle: "Conectează o aplicație",
    title: "Conectează {app}",
    intro: "{app} cere să lucreze cu anunțurile contului tău {account} prin API-ul de anunțuri.",
    canDo: "Dacă permiți, {app} poate:",
    permissions: {
      "listings:read": "să citească anunțurile tale și evenimentele lor",
      "listings:write": "să creeze, să modifice, să suspende, să marcheze ca vândute și să șteargă anunțurile tale",
      "media:write": "să încarce și să ordoneze fotografiile anunțurilor tale",
    },
    keyNote:
      "Astfel {app} primește o cheie API a contului tău pentru 365 de zile. Apare la Aplicații conectate și la Chei API, iar Deconectează o oprește imediat.",
    returnNote: "Oricare ar fi răspunsul, te întorci la {origin}.",
    allow: "Permite",
    deny: "Refuză",
    pending: "Se trimite răspunsul…",
    refused: {
      too_many_keys:
        "Contul tău are deja {limit} chei API în folosință. Revocă una la Chei API, apoi pornește din nou conectarea din {app}.",
      unconfirmed_account: "Confirmă adresa de e-mail înainte de a conecta aplicații.",
    },
    expired: "Acest formular nu mai este valabil. Pornește din nou conectarea din aplicație.",
    errorTitle: "Această cerere de conectare nu poate fi folosită",
    errorIntro: "Aplicația a trimis o cerere la care nu putem răspunde în siguranță, așa că rămâi aici:",
    errorAdvice: "Întoarce-te în aplicație și încearcă din nou; dacă se repetă, anunță autorii aplicației.",
  },
});
