import type { Labels } from "@/lib/base/i18n/labels";

export interface RetiredCode {
  /** Name of the enumeration in the vocabulary document (`subtype.apartment`, `heating_type`, `amenity`). */
  readonly enumeration: string;
  readonly code: string;
  readonly successor: string;
  readonly since: string;
  readonly reason: Labels;
}

/**
 * Codes withdrawn before release 1.0.0. They stay accepted forever: the validator replaces them by
 * their successor and answers with a `retired_code` warning.
 */
export const retiredCodes: readonly RetiredCode[] = [
  {
    enumeration: "subtype.apartment",
    code: "mansard",
    successor: "standard",
    since: "1.0.0",
    reason: {
      ro: "Mansarda este un etaj, nu un tip de apartament: trimiteți floor = attic.",
      en: "An attic flat is a floor, not a kind of apartment: send floor = attic.",
    },
  },
  {
    enumeration: "heating_type",
    code: "central_heating",
    successor: "district_heating",
    since: "1.0.0",
    reason: {
      ro: "Codul amesteca termoficarea cu centrala proprie; centrala proprie are codul gas_boiler.",
      en: "The code mixed district heating with an own boiler; an own boiler is gas_boiler.",
    },
  },
  {
    enumeration: "amenity",
    code: "wifi",
    successor: "internet",
    since: "1.0.0",
    reason: {
      ro: "Contează conexiunea la internet, nu felul în care este distribuită în locuință.",
      en: "What matters is the internet connection, not how it is distributed in the home.",
    },
  },
];

export function successorOf(enumerationName: string, code: unknown): string | undefined {
  return retiredCodes.find((retired) => retired.enumeration === enumerationName && retired.code === code)?.successor;
}
