import { errorStatus, type ErrorCode } from "@/lib/base/errors";
import { catalogue, type Locale } from "@/lib/base/i18n";
import type { ValidationCode } from "@/lib/base/i18n/keys";

/**
 * What an integrator does about each refusal, per language: the "what to do" column of the errors
 * guide. Typed by the error registry (lib/base/errors.ts), so a new code does not compile until it has
 * its fix here; the code, status and title beside it come from the registry and the catalogues.
 */
const fixes: Record<ErrorCode, Record<Locale, string>> = {
  bad_request: {
    en: "Read detail: the request is malformed in a way no other code names. Fix the request; retrying it as is fails again.",
    ro: "Citește detail: cererea este greșită într-un fel pe care niciun alt cod nu îl numește. Corectează cererea; trimisă la fel, eșuează din nou.",
  },
  malformed_json: {
    en: "Send valid JSON (RFC 8259): serialise the body with a JSON library rather than by hand.",
    ro: "Trimite JSON valid (RFC 8259): serializează corpul cu o bibliotecă JSON, nu de mână.",
  },
  invalid_encoding: { en: "Encode the body as UTF-8.", ro: "Codifică corpul în UTF-8." },
  nesting_too_deep: {
    en: "Flatten the body: no field of the API nests that deep.",
    ro: "Aplatizează corpul: niciun câmp al API-ului nu are atâtea niveluri.",
  },
  malformed_path: {
    en: "Percent-encode the path's segments from UTF-8 (encodeURIComponent).",
    ro: "Codifică segmentele căii cu procente, din UTF-8 (encodeURIComponent).",
  },
  unauthenticated: {
    en: "Send Authorization: Bearer with the whole key (id, vertical bar and secret), a svc_test_ key in the sandbox and svc_live_ in production. An expired or revoked key needs a new one.",
    ro: "Trimite Authorization: Bearer cu cheia întreagă (id, bară verticală și secret), o cheie svc_test_ în sandbox și svc_live_ în producție. O cheie expirată sau revocată trebuie înlocuită cu una nouă.",
  },
  missing_ability: {
    en: "Create a key with the permission named in detail (listings:read, listings:write or media:write).",
    ro: "Creează o cheie cu permisiunea numită în detail (listings:read, listings:write sau media:write).",
  },
  forbidden: {
    en: "The key cannot act on this resource; nothing in the request will change that.",
    ro: "Cheia nu poate acționa asupra acestei resurse; nimic din cerere nu schimbă asta.",
  },
  not_found: {
    en: "Check the code or reference, and that the listing is the key's account's (or its agency's). Resuming a listing that is not paused is also a 404.",
    ro: "Verifică codul sau referința și că anunțul este al contului cheii (sau al agenției lui). Reluarea unui anunț care nu este întrerupt este tot 404.",
  },
  method_not_allowed: { en: "Use a method the Allow header lists.", ro: "Folosește o metodă din antetul Allow." },
  not_acceptable: {
    en: "Send Accept: application/json: the API answers JSON only.",
    ro: "Trimite Accept: application/json: API-ul răspunde doar cu JSON.",
  },
  listing_busy: {
    en: "Another write is working on the listing and nothing was written: retry after a second or two.",
    ro: "O altă scriere lucrează pe anunț și nu s-a scris nimic: reîncearcă după o secundă sau două.",
  },
  listing_action_refused: {
    en: "The listing's state does not allow the action (reason in detail, for example open reports): retrying at once does not help.",
    ro: "Starea anunțului nu permite acțiunea (motivul este în detail, de exemplu rapoarte deschise): reîncercarea imediată nu ajută.",
  },
  idempotency_key_in_use: {
    en: "The first request with this Idempotency-Key is still running: retry when it has finished, with the same key.",
    ro: "Prima cerere cu acest Idempotency-Key încă rulează: reîncearcă după ce s-a terminat, cu aceeași cheie.",
  },
  limit_reached: {
    en: "An account limit is reached (detail names it, for example 10 keys or 5 webhooks): remove one before adding another.",
    ro: "S-a atins o limită a contului (detail o numește, de exemplu 10 chei sau 5 webhookuri): elimină una înainte de a adăuga alta.",
  },
  listing_changed_meanwhile: {
    en: "The listing changed after the version in If-Match: read it again, reapply your change and send it with the new ETag.",
    ro: "Anunțul s-a schimbat după versiunea din If-Match: citește-l din nou, aplică iar modificarea și trimite-o cu noul ETag.",
  },
  payload_too_large: {
    en: "Send a smaller body; photos go through POST /uploads, never inside JSON.",
    ro: "Trimite un corp mai mic; fotografiile trec prin POST /uploads, niciodată în JSON.",
  },
  unsupported_media_type: {
    en: "Send the Content-Type named in detail: application/json (PATCH also takes application/merge-patch+json; POST /oauth/token takes form encoding).",
    ro: "Trimite Content-Type-ul numit în detail: application/json (PATCH acceptă și application/merge-patch+json; POST /oauth/token primește codificare de formular).",
  },
  validation_failed: {
    en: "Fix each field errors[] points at, by its code (the table below); detail is for people and may change.",
    ro: "Corectează fiecare câmp indicat de errors[], după codul lui (tabelul de mai jos); detail este pentru oameni și se poate schimba.",
  },
  idempotency_key_reused: {
    en: "This Idempotency-Key was used with another body in the last 10 minutes: use a new key for a new request.",
    ro: "Acest Idempotency-Key a fost folosit cu alt corp în ultimele 10 minute: folosește o cheie nouă pentru o cerere nouă.",
  },
  too_many_requests: {
    en: "Wait Retry-After seconds, then retry; refused requests count too. Spread requests under 300 a minute per key.",
    ro: "Așteaptă Retry-After secunde, apoi reîncearcă; cererile refuzate se numără și ele. Împarte cererile sub 300 pe minut pe cheie.",
  },
  too_many_waiting_requests: {
    en: "Two requests of this key already wait with GET /events?wait=: use one waiting request per stream of events, or retry after Retry-After seconds.",
    ro: "Două cereri ale acestei chei așteaptă deja cu GET /events?wait=: folosește o singură cerere în așteptare pentru un flux de evenimente sau reîncearcă după Retry-After secunde.",
  },
  internal_error: {
    en: "Our fault: retry with growing pauses (safe with an Idempotency-Key or PUT /listings/ref/{ref}), and quote X-Request-Id if it persists.",
    ro: "Greșeala noastră: reîncearcă la intervale tot mai mari (sigur cu Idempotency-Key sau PUT /listings/ref/{ref}) și citează X-Request-Id dacă persistă.",
  },
  service_unavailable: {
    en: "Temporarily unavailable: retry after Retry-After, or with growing pauses.",
    ro: "Indisponibil temporar: reîncearcă după Retry-After sau la intervale tot mai mari.",
  },
  invalid_request: {
    en: "A token request field is missing or wrong (error_description says which): send grant_type, code, redirect_uri, code_verifier and the client's credentials.",
    ro: "Un câmp al cererii de token lipsește sau este greșit (error_description spune care): trimite grant_type, code, redirect_uri, code_verifier și datele clientului.",
  },
  invalid_client: {
    en: "Check client_id (svcc_…) and client_secret (svcs_…), in the form or by HTTP Basic, not both; a public client sends its client_id alone. On the consent page: a client_id that is an https:// address must serve its client ID metadata document there (the page says what was wrong with it).",
    ro: "Verifică client_id (svcc_…) și client_secret (svcs_…), în formular sau prin HTTP Basic, nu în ambele; un client public trimite doar client_id. Pe pagina de consimțământ: un client_id care este o adresă https:// trebuie să servească acolo documentul de metadate al clientului (pagina spune ce nu era în regulă).",
  },
  invalid_grant: {
    en: "The code is expired (60 seconds), used, or not for this redirect_uri or code_verifier: start the consent again.",
    ro: "Codul a expirat (60 de secunde), a fost folosit sau nu corespunde acestui redirect_uri ori code_verifier: reia consimțământul.",
  },
  unsupported_grant_type: { en: "Send grant_type=authorization_code.", ro: "Trimite grant_type=authorization_code." },
  invalid_scope: {
    en: "Ask only for listings:read, listings:write and media:write, separated by spaces.",
    ro: "Cere doar listings:read, listings:write și media:write, separate prin spații.",
  },
  unsupported_response_type: {
    en: "Send response_type=code to the consent page.",
    ro: "Trimite response_type=code la pagina de consimțământ.",
  },
  access_denied: {
    en: "The account holder refused consent: nothing to retry until they agree.",
    ro: "Titularul contului a refuzat consimțământul: nu ai ce reîncerca până nu este de acord.",
  },
  invalid_target: {
    en: "Send as resource the URL of the MCP endpoint ({APP_URL}/api/mcp) or of the REST API ({APP_URL}/api/v1), the same at consent and at the token endpoint.",
    ro: "Trimite ca resource URL-ul endpointului MCP ({APP_URL}/api/mcp) sau al API-ului REST ({APP_URL}/api/v1), același la consimțământ și la endpointul de token.",
  },
  invalid_client_metadata: {
    en: "Register a public client: token_endpoint_auth_method none, grant_types authorization_code, response_types code; an app with a secret is registered in the portal.",
    ro: "Înregistrează un client public: token_endpoint_auth_method none, grant_types authorization_code, response_types code; o aplicație cu secret se înregistrează în portal.",
  },
  invalid_redirect_uri: {
    en: "List 1 to 10 redirect_uris: https://, or http:// on a loopback host, without a fragment.",
    ro: "Trimite între 1 și 10 redirect_uris: https:// sau http:// pe o adresă locală, fără fragment.",
  },
  upload_signature_invalid: {
    en: "Send the file to the url exactly as POST /uploads answered it, unchanged.",
    ro: "Trimite fișierul la url exact cum l-a întors POST /uploads, neschimbat.",
  },
  upload_expired: {
    en: "The upload URL lasts 15 minutes: ask POST /uploads for a new one.",
    ro: "URL-ul de încărcare este valabil 15 minute: cere unul nou cu POST /uploads.",
  },
  upload_length_mismatch: {
    en: "Send exactly content_length bytes, with that Content-Length.",
    ro: "Trimite exact content_length octeți, cu acel Content-Length.",
  },
  upload_incomplete: {
    en: "The file arrived cut short: send it again to the same URL while it is valid.",
    ro: "Fișierul a sosit incomplet: trimite-l din nou la același URL cât timp este valabil.",
  },
  upload_already_used: {
    en: "Each upload URL takes one file: ask POST /uploads for another.",
    ro: "Fiecare URL de încărcare primește un singur fișier: cere altul cu POST /uploads.",
  },
  import_empty: {
    en: "Send at least one line: one listing body (JSON, with its external_ref) per line.",
    ro: "Trimite cel puțin o linie: corpul unui anunț (JSON, cu external_ref) pe fiecare linie.",
  },
  import_too_many_lines: {
    en: "Split the file into imports of at most 10 000 lines, each sent once the previous one has completed.",
    ro: "Împarte fișierul în importuri de cel mult 10 000 de linii, fiecare trimis după ce precedentul s-a încheiat.",
  },
  import_in_progress: {
    en: "Wait for the import named in detail to complete (GET /listings/imports/{id}, or the import.completed event), then send the next one.",
    ro: "Așteaptă ca importul numit în detail să se încheie (GET /listings/imports/{id} sau evenimentul import.completed), apoi trimite-l pe următorul.",
  },
  import_ended: {
    en: "Nothing to do: the import has completed, was cancelled or failed. Read its results with GET /listings/imports/{id}.",
    ro: "Nu mai este nimic de făcut: importul s-a încheiat, a fost anulat sau a eșuat. Citește-i rezultatele cu GET /listings/imports/{id}.",
  },
  stale_source: {
    en: "Nothing to do for this write: the listing already holds a newer version from your system. Send the latest version of the listing, with its own source_updated_at.",
    ro: "Nu mai este nimic de făcut pentru această scriere: anunțul are deja o versiune mai nouă din sistemul tău. Trimite ultima versiune a anunțului, cu propriul source_updated_at.",
  },
  feed_pull_in_progress: {
    en: "Wait until the feed's pulling is false (GET /feeds/{id}): its pull, or the import of its file, has then ended; read last_pull, then pull again if needed.",
    ro: "Așteaptă până când pulling al fluxului este false (GET /feeds/{id}): preluarea lui, sau importul fișierului, s-a încheiat atunci; citește last_pull, apoi preia din nou dacă e nevoie.",
  },
};

/** Where the spec puts each cross-field code; the other codes point at the field they are about. */
const crossFieldPointers: Partial<Record<ValidationCode, string>> = {
  transaction_invalid_for_type: "/transaction",
  floor_above_total: "/floor",
  upfront_above_price: "/upfront_cost",
  bedrooms_above_rooms: "/bedrooms",
  built_above_land: "/built_area_sqm",
  unfurnished_with_appliances: "/furnished",
  heating_none_exclusive: "/heating_types",
  delivery_in_past: "/delivery_quarter",
  complex_needs_complete_type: "/unit_types",
  area_to_below_from: "/unit_types/N/area_sqm_to",
  floor_range_invalid: "/unit_types/N/floors",
  price_currency_not_offered: "/price_currency",
  price_currency_unavailable: "/price_currency",
  price_above_cap: "/price",
};

export interface RefusalRow {
  code: ErrorCode;
  status: number;
  title: string;
  fix: string;
}

export interface ValidationRow {
  code: ValidationCode;
  /** The spec's pointer for a cross-field code; null: the pointer of the field the error is about. */
  pointer: string | null;
  /** The catalogue's detail for the code, placeholders as written ({min}, {other}). */
  detail: string;
}

/** Every refusal code of the registry with its status, its title in the language and what to do, by status. */
export function refusalRows(locale: Locale): RefusalRow[] {
  const { problems } = catalogue(locale).api;
  return (Object.keys(errorStatus) as ErrorCode[])
    .map((code) => ({ code, status: errorStatus[code], title: problems[code].title, fix: fixes[code][locale] }))
    .sort((a, b) => a.status - b.status);
}

/** Every validation code of the catalogue (the `code` of an `errors[]` item), in the catalogue's order. */
export function validationRows(locale: Locale): ValidationRow[] {
  const details = catalogue(locale).api.validation;
  return (Object.keys(details) as ValidationCode[]).map((code) => ({
    code,
    pointer: crossFieldPointers[code] ?? null,
    detail: details[code],
  }));
}
