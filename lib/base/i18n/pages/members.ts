import { pageArea } from "./area";

/** The agency members page (owners and admins only). */
export const membersTexts = pageArea({
  en: {
    title: "Agency members",
    intro: "The people of {agency}. As an owner or admin you see and manage their listings.",
    name: "Name",
    email: "E-mail address",
    role: "Role",
    status: "Status",
    joined: "Member since",
    you: "(you)",
    confirmed: "Confirmed",
    unconfirmed: "Awaiting e-mail confirmation",
  },
  ro: {
    title: "Membrii agenției",
    intro: "Persoanele din {agency}. Ca proprietar sau administrator vezi și administrezi anunțurile lor.",
    name: "Nume",
    email: "Adresa de e-mail",
    role: "Rol",
    status: "Stare",
    joined: "Membru din",
    you: "(tu)",
    confirmed: "Confirmat",
    unconfirmed: "Așteaptă confirmarea adresei de e-mail",
  },
});
