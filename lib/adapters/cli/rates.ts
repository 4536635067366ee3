import { z } from "zod";
import { eurPerUnitValue, listRates, rateCurrency, setRate, withdrawRate } from "@/lib/domain/currency";
import { defineCommand } from "./command";

const rateJson = (rate: { currency: string; eurPerUnit: number | null; updatedAt: Date | null }) => ({
  currency: rate.currency,
  eur_per_unit: rate.eurPerUnit,
  updated_at: rate.updatedAt?.toISOString() ?? null,
});

export const rateCommands = [
  defineCommand({
    name: "rates:set",
    summary: "Sets the reference exchange rate of a currency: how many euros one unit is worth.",
    args: z.object({ currency: rateCurrency, "eur-per-unit": z.coerce.number().pipe(eurPerUnitValue) }),
    run: async (ctx, args) => rateJson(await setRate({ ctx, input: { currency: args.currency, eurPerUnit: args["eur-per-unit"] } })),
  }),
  defineCommand({
    name: "rates:withdraw",
    summary: "Withdraws the reference rate of a currency: new prices in it are refused (price_currency_unavailable) until rates:set.",
    args: z.object({ currency: rateCurrency }),
    run: async (ctx, args) => withdrawRate({ ctx, input: { currency: args.currency } }),
  }),
  defineCommand({
    name: "rates:list",
    summary: "Lists the reference exchange rates; a withdrawn rate is unavailable until set again.",
    args: z.object({}),
    run: async (ctx) => ({ rates: (await listRates({ ctx })).map((rate) => ({ ...rateJson(rate), available: rate.available })) }),
  }),
];
