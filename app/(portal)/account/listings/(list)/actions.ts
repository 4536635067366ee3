"use server";

import { z } from "zod";
import { changeListingState, type OwnerAction } from "@/lib/domain/listings/change-state";
import { confirmListing } from "@/lib/domain/listings/confirm";
import { deleteListing } from "@/lib/domain/listings/delete";
import { portalAction, type ActionCall } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";
import { rowTokenBinding } from "./row-token";

/**
 * One owner action on the listing the row names, through the service the API uses (same rules, same
 * events), after the row's token. A refusal (the API's own, e.g. deleting with open reports) comes
 * back in the page's language; a success needs no words of its own: the row shows the new state, or is gone.
 */
const rowAction = (act: (call: ActionCall<"account", { code: string }>) => Promise<unknown>) =>
  portalAction({
    session: "account",
    input: z.object({ code: text(20) }),
    token: rowTokenBinding,
    run: async (call) => {
      await act(call);
      return { ok: true };
    },
    revalidate: ["/account/listings"],
  });

const changeState = (action: OwnerAction) => rowAction(({ ctx, input: { code } }) => changeListingState({ ctx, input: { code, action } }));

export const pauseListingAction = changeState("pause");

export const resumeListingAction = changeState("resume");

export const markListingSoldAction = changeState("sold");

export const deleteListingAction = rowAction(({ ctx, input: { code } }) => deleteListing({ ctx, input: { code } }));

/** "Still available": one click, no question (nothing is lost by it). */
export const confirmListingAction = rowAction(({ ctx, input: { code } }) => confirmListing({ ctx, input: { code } }));
