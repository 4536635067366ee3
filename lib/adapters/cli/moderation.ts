import { z } from "zod";
import { moderateListing, moderationDecision, rejectionCodes, type ModerationDecision } from "@/lib/domain/listings/moderate";
import type { OperatorActor, ServiceContext } from "@/lib/base/context";
import { commaList, defineCommand, type JsonObject } from "./command";

const code = z.string().min(1);
// The reason has the bounds the sandbox simulator and the portal apply.
const rejectReason = moderationDecision.options[1].shape.reason;

/**
 * A moderator's decision on any account's listing. Prints the listing's code, status, title, url
 * and `moderation` exactly as the API's detail read shows them.
 */
async function decide(ctx: ServiceContext<OperatorActor>, listingCode: string, decision: ModerationDecision): Promise<JsonObject> {
  const detail = await moderateListing({ ctx, input: { code: listingCode, decision } });
  return { code: detail.code, status: detail.status, title: detail.title, url: detail.url, moderation: detail.moderation };
}

export const moderationCommands = [
  defineCommand({
    name: "moderation:approve",
    summary: "Publishes a pending listing, or applies the edit waiting on a published one (listing.published for a new publication).",
    positional: ["code"],
    args: z.object({ code }),
    run: (ctx, args) => decide(ctx, args.code, { decision: "approve" }),
  }),
  defineCommand({
    name: "moderation:reject",
    summary: `Rejects a listing from any state, discarding a waiting edit (listing.rejected); codes from ${rejectionCodes.join(", ")}.`,
    positional: ["code"],
    args: z.object({ code, reason: rejectReason, codes: commaList(z.enum(rejectionCodes)) }),
    run: (ctx, args) => decide(ctx, args.code, { decision: "reject", reason: args.reason, rejection_codes: [...new Set(args.codes)] }),
  }),
  defineCommand({
    name: "moderation:hide",
    summary: "Withdraws a listing from any state (listing.withdrawn, by moderation).",
    positional: ["code"],
    args: z.object({ code }),
    run: (ctx, args) => decide(ctx, args.code, { decision: "hide" }),
  }),
];
