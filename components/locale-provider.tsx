"use client";

import { createContext, useCallback, useContext, type ReactNode } from "react";
import type { Locale } from "@/lib/base/i18n";
import { format, type MessageValues } from "@/lib/base/i18n/format";
import type { PageMessages } from "@/lib/base/i18n/page-messages";

type ErrorTexts = Pick<PageMessages["shell"], "errorTitle" | "errorText" | "retry">;

/** The page's language, and the texts of the error boundary (which is rendered without props from the server). */
const PageLanguage = createContext<{ locale: Locale; errorTexts: ErrorTexts } | null>(null);

export function LocaleProvider({ locale, errorTexts, children }: { locale: Locale; errorTexts: ErrorTexts; children: ReactNode }) {
  return <PageLanguage value={{ locale, errorTexts }}>{children}</PageLanguage>;
}

function usePageLanguage() {
  const value = useContext(PageLanguage);
  if (!value) throw new Error("a client component that formats texts is rendered outside the root layout's LocaleProvider");
  return value;
}

/** Formats a page text (an ICU message the server passed down) in the page's language. */
export type Formatter = (message: string, values?: MessageValues) => string;

/** The page language's formatter, in a client component. */
export function useFormat(): Formatter {
  const { locale } = usePageLanguage();
  return useCallback((message: string, values?: MessageValues) => format(locale, message, values), [locale]);
}

export const useErrorTexts = (): ErrorTexts => usePageLanguage().errorTexts;
