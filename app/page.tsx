import Link from "next/link";

export default function Home() {
  return (
    <>
      <h1>Listings platform</h1>
      <p>
        Publish and manage real-estate listings through the API under <code>/api/v1</code>, or in this portal.
      </p>
      <ul>
        <li>
          <Link href="/docs/api">Interactive API reference</Link> (from <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>)
        </li>
        <li>
          <Link href="/api/v1/schema" prefetch={false}>
            Vocabulary
          </Link>{" "}
          (<code>GET /api/v1/schema</code>, no key needed)
        </li>
      </ul>
    </>
  );
}
