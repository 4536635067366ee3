import { enumeration } from "@/lib/base/i18n/labels";

/** Why moderation refuses a listing: `rejection_codes` of `listing.rejected` and `moderation`. */
export const rejectionCodes = enumeration([
  ["misleading_price", "Preț înșelător", "Misleading price"],
  ["wrong_category", "Categorie greșită", "Wrong category"],
  ["duplicate", "Anunț duplicat", "Duplicate listing"],
  ["poor_photos", "Fotografii nepotrivite", "Poor photos"],
  ["contact_in_text", "Date de contact în text", "Contact details in the text"],
  ["prohibited_content", "Conținut interzis", "Prohibited content"],
  ["incomplete_address", "Adresă incompletă", "Incomplete address"],
  ["not_available", "Proprietate indisponibilă", "Property not available"],
]);
