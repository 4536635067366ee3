// The ceiling app serves route handlers only; Next.js requires a root layout all the same.
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
