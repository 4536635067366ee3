"use client";

import { useActionState, useEffect, useRef } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/forms/form-kit";
import { SecretOnce } from "@/components/secret-once";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { createKeyAction, type KeyFormState } from "./actions";

type Texts = PageMessages["apiKeys"];

/**
 * The key form and, after a creation, the whole key shown once. Both live in this one component,
 * which stays mounted when the page is rendered again: the key stays on screen when the form gives
 * way to the limit's reason (the tenth key), and is gone on the next load of the page.
 */
export function KeyCreation({
  texts,
  secret,
  activeKeyIds,
  atLimit,
  limit,
  permissions,
  validity,
}: {
  texts: Texts;
  secret: PageMessages["secret"];
  /** The keys still usable: the new key's box goes once the key is revoked (the page keeps this component's state). */
  activeKeyIds: readonly string[];
  atLimit: boolean;
  limit: number;
  permissions: readonly (keyof Texts["create"]["permissionHelp"])[];
  validity: readonly number[];
}) {
  const format = useFormat();

  const [state, action] = useActionState<KeyFormState, FormData>(createKeyAction, {});
  const heading = useRef<HTMLHeadingElement>(null);
  const createdKey = state.created?.key;
  useEffect(() => {
    if (createdKey) heading.current?.focus();
  }, [createdKey]);
  const checked = state.values ? state.values.permissions.split(",") : ["listings:read"];
  const days = state.values?.days ?? "90";
  const errors = state.fieldErrors ?? {};
  // A new value after each refusal, so that the kept choices replace what the browser's form reset restored.
  const kept = state.values ? `${state.values.permissions}|${state.values.days}` : "initial";
  return (
    <>
      {state.created && activeKeyIds.includes(state.created.id) ? (
        <section className="card" aria-labelledby="new-key-heading">
          <h2 id="new-key-heading" tabIndex={-1} ref={heading}>
            {format(texts.created.heading, { name: state.created.name })}
          </h2>
          <SecretOnce key={state.created.key} label={texts.created.key} value={state.created.key} stored="hashed" texts={secret} />
        </section>
      ) : null}
      <section className="card" aria-labelledby="create-key-heading">
        <h2 id="create-key-heading">{texts.create.heading}</h2>
        <FormMessage state={state} />
        {atLimit ? (
          <p className="notice warning">{format(texts.create.limit, { limit })}</p>
        ) : (
          <form action={action} className="stack" noValidate>
            <Field
              name="name"
              label={texts.create.name}
              hint={texts.create.nameHint}
              state={state}
              required
              maxLength={100}
              autoComplete="off"
            />
            <fieldset aria-describedby={errors.permissions ? "permissions-error" : undefined}>
              <legend>{texts.create.permissions}</legend>
              {permissions.map((permission) => (
                <div key={`${permission}-${kept}`} className="choice">
                  <label>
                    <input
                      type="checkbox"
                      name="permissions"
                      value={permission}
                      defaultChecked={checked.includes(permission)}
                      aria-describedby={`permission-${permission.replace(":", "-")}-help`}
                      aria-invalid={errors.permissions ? true : undefined}
                    />
                    <code>{permission}</code>
                  </label>
                  <p className="hint" id={`permission-${permission.replace(":", "-")}-help`}>
                    {texts.create.permissionHelp[permission]}
                  </p>
                </div>
              ))}
              {errors.permissions ? (
                <p className="field-error" id="permissions-error">
                  {errors.permissions}
                </p>
              ) : null}
            </fieldset>
            <fieldset aria-describedby={errors.days ? "days-error" : undefined}>
              <legend>{texts.create.validity}</legend>
              {validity.map((option) => (
                <label key={`${option}-${kept}`}>
                  <input type="radio" name="days" value={option} defaultChecked={String(option) === days} />
                  {format(texts.create.days, { days: option })}
                </label>
              ))}
              {errors.days ? (
                <p className="field-error" id="days-error">
                  {errors.days}
                </p>
              ) : null}
            </fieldset>
            <SubmitButton pending={texts.create.pending}>{texts.create.submit}</SubmitButton>
          </form>
        )}
      </section>
    </>
  );
}
