-- AddForeignKey
ALTER TABLE "document_issue" ADD CONSTRAINT "document_issue_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "standard_file"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_issue" ADD CONSTRAINT "document_issue_material_code_fkey" FOREIGN KEY ("material_code") REFERENCES "material"("code") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_issue" ADD CONSTRAINT "document_issue_product_line_code_fkey" FOREIGN KEY ("product_line_code") REFERENCES "product_line"("code") ON DELETE RESTRICT ON UPDATE CASCADE;
