"use client";

import { useId, useRef, useState } from "react";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";

/** A vocabulary code with its label in the page's language. */
export interface TagOption {
  code: string;
  label: string;
}

const maxRooms = 3;
const maxLabelLength = 60;

/**
 * A photo's level and rooms, folded under a summary of the chosen ones: open, the vocabulary's
 * every room would make each photo taller than a screen, and a photo could then not be dragged
 * onto another one in sight. Rooms are free labels: the vocabulary's are offered, known codes
 * shown by their label, and the owner may write another (as may an integrator, whose own labels are
 * listed, checked, so that saving keeps them).
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
  const format = useFormat();

  const ownInput = useRef<HTMLInputElement>(null);
  const [own, setOwn] = useState("");
  const hintId = useId();
  const labelOf = (room: string) => rooms.find((option) => option.code === room)?.label ?? room;
  const options = [
    ...rooms,
    ...chosenRooms.filter((room) => !rooms.some((option) => option.code === room)).map((room) => ({ code: room, label: room })),
  ];
  const chosen = [...floors.filter((option) => option.code === floor).map((option) => option.label), ...chosenRooms.map(labelOf)];
  const full = chosenRooms.length >= maxRooms;
  const ownLabel = own.trim();
  const addOwn = () => {
    if (ownLabel === "" || full || chosenRooms.includes(ownLabel)) return;
    onChange({ rooms: [...chosenRooms, ownLabel] });
    setOwn("");
    ownInput.current?.focus();
  };
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
        {options.map((room) => {
          const checked = chosenRooms.includes(room.code);
          return (
            <label key={room.code} className="choice">
              <input
                type="checkbox"
                checked={checked}
                disabled={!checked && full}
                onChange={() =>
                  onChange({ rooms: checked ? chosenRooms.filter((code) => code !== room.code) : [...chosenRooms, room.code] })
                }
              />{" "}
              {room.label}
            </label>
          );
        })}
        <div className="field">
          <label htmlFor={`${id}-own-room`}>{texts.ownRoom}</label>
          <input
            id={`${id}-own-room`}
            ref={ownInput}
            value={own}
            maxLength={maxLabelLength}
            disabled={full}
            aria-describedby={hintId}
            onChange={(event) => setOwn(event.target.value)}
            onKeyDown={(event) => {
              // Enter adds the label, as the button beside does.
              if (event.key !== "Enter") return;
              event.preventDefault();
              addOwn();
            }}
          />
          <p className="hint" id={hintId}>
            {format(texts.ownRoomHint, { max: maxLabelLength })}
          </p>
          <button type="button" onClick={addOwn} disabled={full || ownLabel === "" || chosenRooms.includes(ownLabel)}>
            {texts.addRoom}
          </button>
        </div>
      </fieldset>
    </details>
  );
}
