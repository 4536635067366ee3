"use client";

import { useActionState, useEffect, useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { FormMessage, SubmitButton } from "@/components/forms/form-kit";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { createPhotoUploadAction, savePhotosAction } from "./photo-actions";
import { PhotoTags, type TagOption } from "./photo-tags";
import "./listing-form.css";

type Texts = PageMessages["listingForm"]["photos"];

/** A photo as the owner's page lists it: its identity for the API, its tags, and how its processing went. */
export interface EditorPhoto {
  url: string | null;
  key: string | null;
  floor: string | null;
  rooms: string[];
  state: "pending" | "processing" | "done" | "failed" | null;
  /** The failure's reason in the page's language. */
  failure: string | null;
  thumbnail: string | null;
  /** The file's name, for a photo uploaded in this visit. */
  name?: string;
}

const pollMs = 2000;
const identity = (photo: EditorPhoto) => photo.url ?? photo.key ?? "";
const listBody = (photos: EditorPhoto[]) =>
  JSON.stringify({
    photos: photos.map((photo) => ({
      ...(photo.url ? { url: photo.url } : { key: photo.key }),
      ...(photo.floor ? { floor: photo.floor } : {}),
      rooms: photo.rooms,
    })),
  });

/**
 * The owner's photo list: files uploaded through the pre-signed URL of `POST /uploads` and photos
 * by address, ordered by drag and drop or by the Move buttons (each move announced), tagged with a
 * level and rooms, saved as the complete list. While photos are processed the page refreshes itself.
 */
export function PhotoEditor({
  code,
  token,
  photos,
  floors,
  rooms,
  texts,
}: {
  code: string;
  token: string;
  photos: EditorPhoto[];
  floors: TagOption[];
  rooms: TagOption[];
  texts: Texts;
}) {
  const format = useFormat();

  const router = useRouter();
  const [state, action] = useActionState(savePhotosAction, {});
  const [list, setList] = useState(photos);
  const [dirty, setDirty] = useState(false);
  const [shown, setShown] = useState(photos);
  const [announcement, setAnnouncement] = useState("");
  // The dragged photo's index: kept in a ref, since nothing shown depends on it (no render mid-drag).
  const dragged = useRef<number | null>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const [answered, setAnswered] = useState(state);
  // A saved list has no changes left; the server's list (after a save, or a refresh while photos
  // are processed) then replaces the one shown, never changes not saved yet.
  let unsaved = dirty;
  if (answered !== state) {
    setAnswered(state);
    if (state.ok) setDirty((unsaved = false));
  }
  if (shown !== photos) {
    setShown(photos);
    if (!unsaved) setList(photos);
  }
  const busy = photos.some((photo) => photo.state === "pending" || photo.state === "processing");
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => router.refresh(), pollMs);
    return () => clearInterval(timer);
  }, [busy, router]);

  const change = (next: EditorPhoto[], said?: string) => {
    setList(next);
    setDirty(true);
    if (said) setAnnouncement(said);
  };
  const move = (from: number, to: number) => {
    if (to < 0 || to >= list.length || from === to) return;
    const next = [...list];
    const [photo] = next.splice(from, 1);
    next.splice(to, 0, photo);
    change(next, format(texts.moved, { from: from + 1, to: to + 1, count: list.length }));
  };
  const update = (index: number, patch: Partial<EditorPhoto>) =>
    change(list.map((photo, i) => (i === index ? { ...photo, ...patch } : photo)));

  async function upload(files: FileList | null) {
    const added: EditorPhoto[] = [];
    for (const file of Array.from(files ?? [])) {
      setAnnouncement(format(texts.uploading, { name: file.name }));
      const asked = new FormData();
      asked.set("token", token);
      asked.set("code", code);
      asked.set("content_length", String(file.size));
      const { grant, message } = await createPhotoUploadAction({}, asked);
      const sent = grant ? await fetch(grant.url, { method: "PUT", headers: grant.headers, body: file }).catch(() => null) : null;
      if (!grant || !sent?.ok) {
        setAnnouncement(format(texts.uploadFailed, { name: file.name, reason: grant ? String(sent?.status ?? "") : (message ?? "") }));
        continue;
      }
      added.push({
        url: null,
        key: grant.key,
        floor: null,
        rooms: [],
        state: null,
        failure: null,
        thumbnail: null,
        name: file.name,
      });
      setAnnouncement(format(texts.uploaded, { name: file.name }));
    }
    if (added.length) change([...list, ...added]);
  }

  function addUrl() {
    const url = urlRef.current?.value.trim();
    if (!url) return;
    change([...list, { url, key: null, floor: null, rooms: [], state: null, failure: null, thumbnail: null }]);
    urlRef.current!.value = "";
  }

  return (
    <section aria-labelledby={`${ids}-title`} className="photo-editor">
      <h2 id={`${ids}-title`}>{texts.title}</h2>
      <p>{texts.intro}</p>
      {/* A live region without the status role: the page's own status message stays the one status. */}
      <p aria-live="polite">{announcement}</p>
      {busy ? <p className="notice">{texts.processing}</p> : null}
      {list.length === 0 ? <p className="empty">{texts.empty}</p> : null}
      <ol className="photo-list">
        {list.map((photo, index) => {
          const label = format(texts.photo, { n: index + 1, count: list.length });
          return (
            <li
              key={identity(photo)}
              draggable
              onDragStart={(event) => {
                // Firefox starts a drag only with data set; the index itself stays in a ref.
                event.dataTransfer.setData("text/plain", String(index));
                event.dataTransfer.effectAllowed = "move";
                dragged.current = index;
              }}
              // Cancelled, both make the photo a drop target (dragenter is the one the HTML spec names).
              onDragEnter={(event) => event.preventDefault()}
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => {
                event.preventDefault();
                if (dragged.current !== null) move(dragged.current, index);
                dragged.current = null;
              }}
              onDragEnd={() => {
                dragged.current = null;
              }}
              aria-label={label}
              className="photo-item"
            >
              <div className="photo-thumb">
                {/* The owner's own thumbnail from the photo store; next/image would add nothing here. */}
                {/* eslint-disable-next-line @next/next/no-img-element */}
                {photo.thumbnail ? <img src={photo.thumbnail} alt={label} width={160} height={107} /> : null}
              </div>
              <div className="photo-details">
                <p className="photo-source">{photo.name ?? photo.url ?? texts.fromDevice}</p>
                {photo.state ? (
                  <p className={photo.state === "failed" ? "field-error" : "hint"}>
                    {photo.state === "failed" ? format(texts.states.failed, { reason: photo.failure ?? "" }) : texts.states[photo.state]}
                  </p>
                ) : null}
                <PhotoTags
                  id={`${ids}-${index}`}
                  floor={photo.floor}
                  chosenRooms={photo.rooms}
                  floors={floors}
                  rooms={rooms}
                  texts={texts}
                  onChange={(tags) => update(index, tags)}
                />
                <div className="actions">
                  <button
                    type="button"
                    onClick={() => move(index, index - 1)}
                    disabled={index === 0}
                    aria-label={`${texts.moveUp}: ${label}`}
                  >
                    {texts.moveUp}
                  </button>
                  <button
                    type="button"
                    onClick={() => move(index, index + 1)}
                    disabled={index === list.length - 1}
                    aria-label={`${texts.moveDown}: ${label}`}
                  >
                    {texts.moveDown}
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      change(
                        list.filter((_, i) => i !== index),
                        texts.removed,
                      )
                    }
                    aria-label={`${texts.remove}: ${label}`}
                  >
                    {texts.remove}
                  </button>
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      <div className="field">
        <label htmlFor={`${ids}-files`}>{texts.pick}</label>
        <input
          id={`${ids}-files`}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          aria-describedby={`${ids}-files-hint`}
          onChange={(event) => {
            void upload(event.target.files);
            event.target.value = "";
          }}
        />
        <p className="hint" id={`${ids}-files-hint`}>
          {texts.pickHint}
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-url`}>{texts.url}</label>
        <input id={`${ids}-url`} ref={urlRef} type="url" aria-describedby={`${ids}-url-hint`} />
        <p className="hint" id={`${ids}-url-hint`}>
          {texts.urlHint}
        </p>
        <button type="button" onClick={addUrl}>
          {texts.add}
        </button>
      </div>
      <form action={action}>
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="code" value={code} />
        <input type="hidden" name="photos" value={listBody(list)} />
        {dirty ? <p className="notice warning">{texts.unsaved}</p> : null}
        <FormMessage state={dirty && state.ok ? undefined : state} />
        <SubmitButton pending={texts.saving}>{texts.save}</SubmitButton>
      </form>
    </section>
  );
}
