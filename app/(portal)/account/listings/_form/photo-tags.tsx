"use client";

import { format } from "@/lib/platform/i18n/format";
import type { PageMessages } from "@/lib/platform/i18n/page-messages";

/** A vocabulary code with its label in the page's language. */
export interface TagOption {
  code: string;
  label: string;
}

const maxRooms = 3;

/**
 * A photo's level and rooms, folded under a summary of the chosen ones: open, the vocabulary's
 * every room would make each photo taller than a screen, and a photo could then not be dragged
 * onto another one in sight.
 */
export function PhotoTags({
  id,
  floor,
  chosenRooms,
  floors,
  rooms,
  texts,
  onChange,
}: {
  id: string;
  floor: string | null;
  chosenRooms: string[];
  floors: TagOption[];
  rooms: TagOption[];
  texts: PageMessages["listingForm"]["photos"];
  onChange: (tags: { floor?: string | null; rooms?: string[] }) => void;
}) {
  const chosen = [...floors.filter((option) => option.code === floor), ...rooms.filter((option) => chosenRooms.includes(option.code))].map(
    (option) => option.label,
  );
  return (
    <details className="photo-tags">
      <summary>{format(texts.tags, { tags: chosen.length ? chosen.join(", ") : texts.noTags })}</summary>
      <div className="field">
        <label htmlFor={`${id}-floor`}>{texts.floor}</label>
        <select id={`${id}-floor`} value={floor ?? ""} onChange={(event) => onChange({ floor: event.target.value || null })}>
          <option value="">—</option>
          {floors.map((option) => (
            <option key={option.code} value={option.code}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>{texts.rooms}</legend>
        {rooms.map((room) => {
          const checked = chosenRooms.includes(room.code);
          return (
            <label key={room.code} className="choice">
              <input
                type="checkbox"
                checked={checked}
                disabled={!checked && chosenRooms.length >= maxRooms}
                onChange={() =>
                  onChange({ rooms: checked ? chosenRooms.filter((code) => code !== room.code) : [...chosenRooms, room.code] })
                }
              />{" "}
              {room.label}
            </label>
          );
        })}
      </fieldset>
    </details>
  );
}
