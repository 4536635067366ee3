import type { DescribedFact } from "@/lib/domain/vocabulary/describe-facts";

/** A listing's facts in words (`describeFacts`): the public page and the moderators' review show the same list. */
export function FactList({ facts }: { facts: DescribedFact[] }) {
  return (
    <dl className="facts">
      {facts.map((fact) => (
        <div key={fact.name} className="contents">
          <dt>{fact.label}</dt>
          <dd>{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
