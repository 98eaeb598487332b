declare module 'qrcode/lib/core/qrcode.js' {
  const QRCodeCore: {
    create(
      text: string,
      options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' },
    ): { modules: { size: number; data: Uint8Array } }
  }
  export default QRCodeCore
}
