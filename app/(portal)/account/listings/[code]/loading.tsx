export { default } from "@/app/(portal)/portal-loading";
