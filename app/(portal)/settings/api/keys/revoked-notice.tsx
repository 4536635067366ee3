"use client";

import { useEffect, useRef, type ReactNode } from "react";

/** The notice after a revocation: announced, and focused so that keyboard users continue from it. */
export function RevokedNotice({ children }: { children: ReactNode }) {
  const notice = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    notice.current?.focus();
  }, []);
  return (
    <p ref={notice} tabIndex={-1} className="notice success" role="status">
      {children}
    </p>
  );
}
